import { expect, expectNoAxeViolations, test } from './support/fixtures';

/*
 * An admin drafts the embedded sandbox's profile from the Connections page, in a real browser:
 * the server makes the calls, and the page shows the drafted profile's JSON with the evidence of
 * each key, to copy or download. (A recruiter or QA is refused the route: connection-routes.test.ts.)
 */

test('an admin drafts a profile from the sandbox and sees each key with its evidence', async ({
  page,
}) => {
  await page.goto('/connections');
  await expect(page.getByRole('heading', { level: 1, name: 'Connections' })).toBeVisible();
  await page.getByRole('button', { name: 'Draft a profile from Sandbox' }).click();
  await expect(
    page.getByText(/^Drafted: \d+ keys proved, \d+ guessed, \d+ left to the preset\./),
  ).toBeVisible();
  const json = page.getByRole('region', { name: 'Profile drafted for sandbox' });
  await expect(json).toContainText('"preset": "sandbox"');
  await expect(json).toContainText('"$evidence": {');
  await expect(json).toContainText('"list.records": "proved: GET requisitions?');
  await expect(json).toContainText(
    '"accepted": "undecided: a draft POSTs only when asked to send a test requisition',
  );
  await expect(page.getByRole('button', { name: 'Download JSON' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('with the test send ticked, the draft of the sandbox (not production) proves the POST side too', async ({
  page,
}) => {
  await page.goto('/connections');
  await page.getByLabel('Send one test requisition (non-production only)').check();
  await page.getByRole('button', { name: 'Draft a profile from Sandbox' }).click();
  const json = page.getByRole('region', { name: 'Profile drafted for sandbox' });
  await expect(json).toContainText('"paths.requisitionimport": "proved: POST requisitionimport?');
  await expect(json).toContainText('"results.candidate": "proved: GET candidateresults?');
  await expect(json).toContainText('"batchId": "/batchid"');
});

test('a signed example that is not JSON is refused on the page, before anything is asked', async ({
  page,
}) => {
  const drafts: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/draft-profile')) drafts.push(request.url());
  });
  await page.goto('/connections');
  await page
    .getByText('A signed example, if the VMS signs in a way the portal does not know')
    .click();
  await page.getByLabel(/^Signed example/).fill('{"method": "GET",');
  await page.getByRole('button', { name: 'Draft a profile from Sandbox' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'The signed example is not JSON: paste the example file as it is.',
  );
  expect(drafts).toEqual([]);
});
