import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';

/** Every page, in the states that show the most of it, checked by axe (contrast included). */
async function everyPageHasNoViolations(page: Page) {
  const nav = page.getByRole('navigation', { name: 'Main' });

  await page.goto('/requisitions');
  await expect(page.getByRole('region', { name: 'Requisitions' }).getByRole('row')).not.toHaveCount(
    0,
  );
  await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: /^Open/ }).click();
  await expectNoAxeViolations(page);

  await page.goto('/requisitions/amend/40001');
  await expect(page.getByLabel(/^Job title/)).toHaveValue('Senior Java Developer');
  await expectNoAxeViolations(page);

  // A form with problems, a batch with a refused and an accepted item, then their results.
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, insertData('Themes'));
  await addToBatch(page);
  const refused = insertData('Themes refused');
  await fillRequiredInsert(page, refused);
  await page.getByLabel(/^Req class ID/).fill('999');
  await addToBatch(page);
  await page.getByLabel(/^Days per week/).fill('9');
  await page.getByRole('button', { name: 'Add to batch' }).click();
  await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
  await expectNoAxeViolations(page);
  const results = await sendBatch(page);
  await expect(results.getByText('Error', { exact: true })).toBeVisible();
  await expect(results.getByText('Success', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/candidates');
  await page.getByLabel(/^Search by Req ID/).fill('4000');
  await expectNoAxeViolations(page);
  await page.goto('/candidates?reqId=40005');
  await expect(page.getByRole('region', { name: /^Check this before adding/ })).toBeVisible();
  await expectNoAxeViolations(page);

  await nav.getByRole('link', { name: 'Submissions' }).click();
  await expect(page.getByRole('article').first().getByText('Error', { exact: true })).toBeVisible();
  await expectNoAxeViolations(page);

  // The audit trail, with the batch sent above in it (sign-in is off: every page is open).
  await nav.getByRole('link', { name: 'Audit trail' }).click();
  await expect(
    page.getByRole('region', { name: 'Events' }).getByRole('row', { name: /Batch sent/ }),
  ).not.toHaveCount(0);
  await expectNoAxeViolations(page);

  // A QA suite, run once with a case that fails: the list, the suite and the run.
  const item = (reference: string, reqclassid: string) => ({
    requesttype: 'I',
    orgid: '1001',
    clientinternalreq: `${reference}-{{run.id}}`,
    titlerole: 'Themes nurse',
    noofopenings: '1',
    engagementtype: '1',
    reqclassid,
    hoursunitsperday: '8',
    daysperweek: '5',
    shortdescription: 'Ward nights.',
    reqownerid: 'mreyes',
  });
  const saved = await page.request.post('/api/suites', {
    data: {
      suite: {
        name: `Themes ${Date.now().toString(36)}`,
        cases: [
          {
            id: 'accepted',
            kind: 'requisition',
            item: item('TH-1', '101'),
            expect: { status: 'Success' },
          },
          {
            id: 'refused',
            kind: 'requisition',
            item: item('TH-2', '999'),
            expect: { status: 'Success' },
          },
        ],
      },
    },
  });
  expect(saved.status()).toBe(201);
  const { id: suiteId } = (await saved.json()) as { id: number };
  const started = await page.request.post('/api/suite-runs', { data: { suiteId } });
  const { id: runId } = (await started.json()) as { id: number };
  await nav.getByRole('link', { name: 'Suites' }).click();
  await expect(page.getByRole('heading', { name: 'Suites', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.goto(`/suites/${suiteId}/runs/${runId}`);
  await expect(page.getByRole('status').filter({ hasText: '1 passed, 1 failed.' })).toBeVisible({
    timeout: 30_000,
  });
  await expectNoAxeViolations(page);
  await page.goto(`/suites/${suiteId}`);
  await page
    .getByText(/^Item \(/)
    .first()
    .click();
  await expect(page.getByRole('cell', { name: `Run #${runId}` })).toBeVisible();
  await expectNoAxeViolations(page);

  await nav.getByRole('link', { name: 'Settings' }).click();
  await expect(page.getByRole('heading', { name: 'Settings', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);

  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { name: 'Page not found', level: 1 })).toBeVisible();
  await expectNoAxeViolations(page);
}

for (const colorScheme of ['light', 'dark'] as const) {
  for (const viewport of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    test(`axe: no violations on any page, ${colorScheme}, ${viewport.width} px`, async ({
      page,
    }) => {
      // axe on the 6,000 px form takes 5–10 s when the 2 cores are busy; four pages exceed 30 s.
      test.setTimeout(90_000);
      await page.setViewportSize(viewport);
      await page.emulateMedia({ colorScheme });
      await everyPageHasNoViolations(page);
    });
  }
}

test('the theme follows the system, and Settings can override it either way', async ({ page }) => {
  const background = () =>
    page.evaluate(
      () => getComputedStyle(document.body.parentElement ?? document.body).backgroundColor,
    );
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/settings');
  const dark = await background();
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await background();
  expect(dark).not.toBe(light);

  // Dark chosen while the system is light; kept after a reload.
  await page.getByLabel('Dark', { exact: true }).check();
  expect(await background()).toBe(dark);
  await page.reload();
  expect(await background()).toBe(dark);
  // Light chosen while the system is dark.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByLabel('Light', { exact: true }).check();
  expect(await background()).toBe(light);
  await page.getByLabel(/^As the system is set/).check();
  expect(await background()).toBe(dark);
});

test('wire names are hidden from labels unless Settings shows them', async ({ page }) => {
  await page.goto('/requisitions/new');
  const title = page.getByLabel(/^Job title/);
  await expect(title).toHaveAccessibleName(/^Job title/);
  await expect(title).not.toHaveAccessibleName(/titlerole/);
  await page.goto('/settings');
  await page.getByLabel(/^Show each field’s wire name/).check();
  await page.goto('/requisitions/new');
  await expect(page.getByLabel(/^Job title/)).toHaveAccessibleName(/titlerole/);
});
