import type { Page } from '@playwright/test';
import { sandboxDemo } from '@/sandbox/index';
import { echoingVmsTest as test, expect } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData } from './support/requisitions';

/*
 * A VMS that quotes the key and signature it was sent, in an error and in its results: what the
 * recruiter reads, and every answer the browser received, carry "[redacted]" in their place.
 */

/** Every answer body and header the page receives from the portal, as text. */
function recordAnswers(page: Page): string[] {
  const answers: string[] = [];
  page.on('response', (response) => {
    void response
      .text()
      .then((body) => answers.push(`${JSON.stringify(response.headers())}\n${body}`))
      .catch(() => undefined);
  });
  return answers;
}

test('an echoed key and signature never reach the browser, in a refusal or in results', async ({
  page,
  echoingVms,
}) => {
  const answers = recordAnswers(page);
  const data = insertData('Echo Analyst');
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, data);
  await addToBatch(page);

  // The VMS refuses the send, quoting the credentials.
  echoingVms.setRefuseSends(true);
  await page.getByRole('button', { name: /^Send batch/ }).click();
  const tray = page.getByRole('region', { name: 'Batch to send' });
  const refusal = tray.getByRole('alert').filter({ hasText: 'Signature rejected' });
  await expect(refusal).toContainText('Checked with key [redacted] and signature [redacted].');

  // It accepts the same batch sent again, and quotes them in every result row.
  echoingVms.setRefuseSends(false);
  await page.getByRole('button', { name: /^Send batch/ }).click();
  const results = page.getByRole('region', { name: /^Results of batch/ });
  await expect(results.getByRole('row').nth(1).getByText('Success', { exact: true })).toBeVisible({
    timeout: 15_000,
  });
  await expect(results).toContainText('Checked with key [redacted] and signature [redacted].');

  const seen = echoingVms.credentialsSeen();
  // The demo key, and a signature for each call that reached the hop.
  expect(seen).toContain(sandboxDemo.apiKey);
  expect(seen.length).toBeGreaterThan(2);
  const shown = await page.locator('body').innerText();
  await expect.poll(() => answers.length).toBeGreaterThan(3);
  for (const secret of [...seen, sandboxDemo.apiSecret]) {
    expect(shown).not.toContain(secret);
    for (const answer of answers) expect(answer).not.toContain(secret);
  }
});
