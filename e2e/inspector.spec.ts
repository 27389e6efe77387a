import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { sandboxDemo } from '@/sandbox/index';
import { harSchema } from '@/test-support/har-schema';
import { expect, expectNoAxeViolations, openPage, test } from './support/fixtures';
import { addToBatch, fillRequiredInsert, insertData, sendBatch } from './support/requisitions';

/*
 * A sent batch is found in the inspector by a word of its body, filtered by
 * status and method, opened, exported as a HAR that validates, copied as a cURL that holds no
 * secret and works with the shown snippet and the demo credentials, and sent again after a
 * confirmation, the replay linked to its original.
 */
const run = promisify(execFile);

test('a sent batch is found by a word of its body, exported, copied as cURL, and sent again', async ({
  page,
  portal,
}) => {
  test.setTimeout(90_000);
  const word = `Zebracorn${Date.now().toString(36)}`;
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, insertData(`${word} analyst`));
  await addToBatch(page);
  const results = await sendBatch(page);
  await expect(results.getByRole('status').first()).toHaveText(
    'All 1 requisition processed: 1 Success',
    { timeout: 30_000 },
  );

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Inspector' })
    .click();
  await page.getByLabel('Words in the bodies').fill(word);
  await page.getByLabel('Status').selectOption('2xx');
  await page.getByLabel('Method').selectOption('POST');
  await page.getByRole('button', { name: 'Show calls' }).click();
  await expect(page).toHaveURL(/[?&]q=Zebracorn/);
  const calls = page.getByRole('region', { name: 'Calls' }).or(page.locator('.inspector__list'));
  const rows = calls.locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('POST requisitionimport');
  await expect(rows.first()).toContainText('202');
  // GET: the calls that read it back (the list refreshed after the batch), and no POST.
  await page.getByLabel('Method').selectOption('GET');
  await page.getByRole('button', { name: 'Show calls' }).click();
  await expect(page).toHaveURL(/[?&]method=GET/);
  await expect(rows.first()).toContainText('GET ');
  for (const text of await rows.allTextContents()) expect(text).not.toContain('POST');
  await page.getByLabel('Method').selectOption('POST');
  await page.getByRole('button', { name: 'Show calls' }).click();

  await rows.first().getByRole('button', { name: 'POST requisitionimport' }).click();
  const detail = page.locator('.inspector__detail');
  await expect(detail.getByRole('region', { name: 'Request body' })).toContainText(word);
  await expect(detail.getByRole('heading', { name: 'Other calls about this batch' })).toBeVisible();
  await expectNoAxeViolations(page);

  // HAR of the selection: parses, validates, and holds the call.
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export HAR' }).click();
  const har = harSchema.parse(JSON.parse(await readFile(await (await download).path(), 'utf8')));
  expect(har.log.entries).toHaveLength(1);
  expect(har.log.entries[0]?.request.postData?.text).toContain(word);

  // cURL: no key, secret or signature in it; with the snippet and the demo pair it works.
  await detail.getByRole('button', { name: 'Copy as cURL' }).click();
  const curl = (await detail.getByRole('region', { name: 'cURL command' }).textContent()) ?? '';
  const snippet =
    (await detail.getByRole('region', { name: 'Signature snippet' }).textContent()) ?? '';
  for (const secret of [sandboxDemo.apiKey, sandboxDemo.apiSecret]) {
    expect(curl).not.toContain(secret);
    expect(snippet).not.toContain(secret);
  }
  expect(curl).toContain('$VMS_API_KEY');
  expect(curl).toContain(portal.upstreamUrl);
  const { stdout } = await run('bash', ['-c', `${snippet}\n${curl} -s -w '\\n%{http_code}'`], {
    env: { ...process.env, VMS_API_KEY: sandboxDemo.apiKey, VMS_API_SECRET: sandboxDemo.apiSecret },
  });
  const status = stdout.trim().split('\n').at(-1);
  expect(status).toBe('202');
  expect(stdout).toMatch(/"batchid"/);

  // Send again, after saying it reaches the VMS; the replay is linked both ways.
  await detail.getByRole('button', { name: 'Send again' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send this call to the VMS again?' });
  await expect(dialog).toContainText('new batch');
  await dialog.getByRole('button', { name: 'Send it again' }).click();
  await expect(detail.getByText(/^Sent again: the VMS accepted it as batch /)).toBeVisible();
  await expect(detail.getByRole('heading', { name: 'Sent again as' })).toBeVisible();
  await detail.locator('.inspector__related').last().getByRole('button').first().click();
  await expect(page).toHaveURL(/[?&]id=\d+/);
  await expect(page.locator('.inspector__detail')).toContainText('Replay of');
});

test('the list of calls shows a call made elsewhere while it is open, newest first, without a click', async ({
  page,
}) => {
  await page.goto('/inspector');
  const rows = page.locator('.inspector__list tbody tr');
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: /calls?( shown, more below)?$|No call recorded yet/ }),
  ).toBeVisible();
  const before = await rows.count();
  // Another tab reads the requisition list: a call through the proxy, journaled.
  const other = await openPage(page.context());
  const res = await other.request.get(
    '/api/vms/requisitions?Client_Org_Id=1001&Vendor_Org_Id=9001&filterfield=Req_Id&filteroperator=%3D&filtervalue=40001',
  );
  expect(res.status()).toBe(200);
  await other.close();
  await expect(rows).toHaveCount(before + 1, { timeout: 10_000 });
  await expect(rows.first()).toContainText('GET requisitions');
});

test('Edit and send opens a recorded batch in the JSON editor, and its send is recorded as a replay', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const word = `Okapi${Date.now().toString(36)}`;
  await page.goto('/requisitions/new');
  await fillRequiredInsert(page, insertData(`${word} lead`));
  await addToBatch(page);
  await sendBatch(page);

  await page.goto(`/inspector?q=${word}&method=POST`);
  const row = page.locator('.inspector__list tbody tr').first();
  await row.getByRole('button', { name: 'POST requisitionimport' }).click();
  await expect(page).toHaveURL(/[?&]id=(\d+)/);
  const original = new URL(page.url()).searchParams.get('id') ?? '';
  await page.locator('.inspector__detail').getByRole('button', { name: 'Edit and send' }).click();

  // In the workspace, with the editor open and the tray saying what it repeats.
  await expect(page).toHaveURL(/\/requisitions\/new/);
  await expect(page.getByText(`This batch sends call #${original} again`)).toBeVisible();
  const editor = page.getByRole('textbox', { name: /^JSON to be sent, editable/ });
  await editor.click();
  await page.keyboard.press('Control+f');
  await page.getByRole('textbox', { name: 'Find' }).fill(word);
  await page.getByRole('textbox', { name: 'Replace' }).fill(`${word}X`);
  await page.getByRole('button', { name: 'replace all' }).click();
  await page.getByRole('button', { name: 'Apply to the batch' }).click();
  await page.getByRole('button', { name: /^Send batch/ }).click();
  await expect(page.getByRole('heading', { name: 'Batch accepted' })).toBeVisible();

  await page.goto(`/inspector?id=${original}`);
  const detail = page.locator('.inspector__detail');
  await expect(detail.getByRole('heading', { name: 'Sent again as' })).toBeVisible();
  await expect(detail.locator('.inspector__related').last()).toContainText(
    'POST requisitionimport',
  );
});

test('any call composed and sent from the inspector, copied as PowerShell and Node fetch, exported with its timings and headers, and a replay compared with its original', async ({
  page,
  portal,
}) => {
  test.setTimeout(90_000);
  await page.goto('/inspector');
  await page.getByRole('button', { name: 'Compose a call' }).click();
  const compose = page.getByRole('form', { name: 'Compose a call' });

  // A GET with its query: the requisitions list filtered, signed and journaled by the proxy.
  await compose.getByLabel('Operation to send').selectOption('requisitions');
  await compose.getByLabel('Filter field').selectOption('Req_Id');
  await compose.getByLabel('Filter operator').selectOption('>=');
  await compose.getByLabel('Filter value').fill('40001');
  await compose.getByRole('button', { name: 'Send GET requisitions' }).click();
  await expect(compose.getByRole('status')).toHaveText(
    /^Answered 200 to \/api\/vms\/requisitions\?Client_Org_Id=\d+&Vendor_Org_Id=\d+&filterfield=Req_Id&filteroperator=%3E%3D&filtervalue=40001; the call is recorded/,
  );
  await expect(compose.getByRole('region', { name: 'Answer to the composed call' })).toHaveText(
    /^\[/,
  );
  const rows = page.locator('.inspector__list tbody tr');
  await expect(rows.first()).toContainText('GET requisitions');

  // A results poll by batch id: whatever the VMS says, it shows as it came.
  await compose.getByLabel('Operation to send').selectOption('requisitionresults');
  await compose.getByLabel('Batch id of the results').fill('rb_no_such_batch');
  await compose.getByRole('button', { name: 'Send GET requisitionresults' }).click();
  await expect(compose.getByRole('status')).toContainText(
    '/api/vms/requisitionresults?Client_Org_Id=',
  );
  await expect(compose.getByRole('status')).toContainText('batchid=rb_no_such_batch');
  await expect(rows.first()).toContainText('GET requisitionresults');

  // A batch's body as typed.
  const word = `Quokka${Date.now().toString(36)}`;
  await compose.getByLabel('Operation to send').selectOption('requisitionimport');
  await compose
    .getByLabel('Body to send (JSON, as typed)')
    .fill(`[{"clientinternalreq":"${word}","titlerole":"Analyst"}]`);
  await compose.getByRole('button', { name: 'Send POST requisitionimport' }).click();
  await expect(compose.getByRole('status')).toHaveText(/^Answered 202 to /);
  await expect(compose.getByRole('region', { name: 'Answer to the composed call' })).toContainText(
    '"batchid"',
  );
  await page.getByRole('button', { name: 'Compose a call' }).click();
  await expect(compose).toHaveCount(0);

  // Copy as PowerShell and as Node fetch: no secret in either; the Node script works.
  await rows.filter({ hasText: 'GET requisitions' }).first().getByRole('button').first().click();
  const detail = page.locator('.inspector__detail');
  await detail.getByRole('button', { name: 'Copy as PowerShell' }).click();
  const powershell =
    (await detail.getByRole('region', { name: 'PowerShell script' }).textContent()) ?? '';
  expect(powershell).toContain('Invoke-RestMethod -Method Get');
  expect(powershell).toContain('$env:VMS_API_SECRET');
  await detail.getByRole('button', { name: 'Copy as Node fetch' }).click();
  const script =
    (await detail.getByRole('region', { name: 'Node fetch script' }).textContent()) ?? '';
  expect(script).toContain('filtervalue=40001');
  for (const secret of [sandboxDemo.apiKey, sandboxDemo.apiSecret]) {
    expect(powershell).not.toContain(secret);
    expect(script).not.toContain(secret);
  }
  // Not the runner's environment: its FORCE_COLOR would colour the status Node prints.
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
    env: {
      PATH: process.env.PATH,
      VMS_API_KEY: sandboxDemo.apiKey,
      VMS_API_SECRET: sandboxDemo.apiSecret,
    },
    maxBuffer: 16 * 1024 * 1024,
  });
  expect(stdout).toMatch(/^200 \[/);
  expect(script).toContain(portal.upstreamUrl);

  // Sent again, then compared with its original: the same body, answers that differ in the id.
  await page.goto(`/inspector?q=${word}&method=POST`);
  await rows.first().getByRole('button', { name: 'POST requisitionimport' }).click();
  await detail.getByRole('button', { name: 'Send again' }).click();
  await page
    .getByRole('dialog', { name: 'Send this call to the VMS again?' })
    .getByRole('button', { name: 'Send it again' })
    .click();
  await expect(detail.getByRole('heading', { name: 'Sent again as' })).toBeVisible();
  await detail.locator('.inspector__related').last().getByRole('button').first().click();
  await expect(detail).toContainText('Replay of');
  await detail.getByRole('button', { name: 'Compare with original' }).click();
  const compared = detail.getByRole('region', { name: 'Compared with the original' });
  await expect(compared.getByRole('heading')).toHaveText(
    /^Call #\d+ compared with its original, #\d+$/,
  );
  await expect(compared).toContainText('Request bodies: the same.');
  const answers = compared.getByRole('region', { name: 'Answers' });
  await expect(answers.locator('del')).toContainText('"batchid"');
  await expect(answers.locator('ins')).toContainText('"batchid"');
  await expectNoAxeViolations(page);

  // The HAR: waiting and receiving apart, the headers sent and none of the secret ones, in the
  // order the calls started.
  await page.goto('/inspector?operation=requisitions');
  const download = page.waitForEvent('download');
  await page.getByRole('link', { name: 'Export HAR' }).click();
  const har = harSchema.parse(JSON.parse(await readFile(await (await download).path(), 'utf8')));
  const composed = har.log.entries.find((entry) => entry.request.url.includes('filtervalue=40001'));
  expect(composed?.request.headers.map((header) => header.name)).toEqual(['host', 'accept']);
  expect(composed?.timings.wait).toBeGreaterThan(0);
  expect(composed?.timings.receive).toBeGreaterThanOrEqual(0);
  for (const entry of har.log.entries) {
    for (const { name, value } of entry.request.headers) {
      expect(name).not.toMatch(/x-api-key|x-signature|cookie|authorization|csrf/i);
      expect(value).not.toContain(sandboxDemo.apiSecret);
    }
  }
  const started = har.log.entries.map((entry) => entry.startedDateTime);
  expect(started).toEqual([...started].sort());
});
