import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal, type RunningPortal } from '@/server/start';
import { addUser } from '@/test-support/test-browser';
import { signIn } from './support/auth-portal';
import { expect, expectNoAxeViolations, journeyTest } from './support/fixtures';

/*
 * QA suites in real Chromium, against the real portal (sign-in on, a QA engineer) and the real
 * sandbox (decision 038): calls from the journal saved as cases, cases added by hand (an expected
 * Error, a candidate to the requisition the suite creates), the suite run twice without duplicate
 * errors, then a sandbox rule changed (SANDBOX_BLANK_MAXIMUM_BILL_RATE) and a third run showing
 * the affected case newly failing, expected beside actual.
 */

const qaEmail = 'quinn.qa@example.com';
const password = 'correct horse battery staple';

interface Lab {
  portal: RunningPortal;
  /** Starts the sandbox again, on its port and database, reading a blank maximumbillrate as 0. */
  tightenBillRates(): Promise<void>;
}

const test = journeyTest.extend<{ lab: Lab }>({
  lab: async ({}, use) => {
    const dir = mkdtempSync(join(tmpdir(), 'vms-portal-suites-'));
    const sandboxDb = join(dir, 'sandbox.db');
    const portalDb = join(dir, 'portal.db');
    let sandbox: RunningSandbox = await startSandbox({
      port: 0,
      dbPath: sandboxDb,
      processingDelayMs: 0,
    });
    const port = sandbox.port;
    await addUser(portalDb, qaEmail, password, 'qa', [1001]);
    const portal = await startPortal(
      loadConfig({
        PORT: '0',
        PORTAL_DB: portalDb,
        VMS_BASE_URL: sandbox.url,
        VMS_API_KEY: sandboxDemo.apiKey,
        VMS_API_SECRET: sandboxDemo.apiSecret,
        VMS_CLIENT_ORGS: sandboxDemo.clientOrgIds.join(','),
        VMS_VENDOR_ORG_ID: String(sandboxDemo.vendorOrgId),
        VMS_PRODUCTION: 'off',
        AUTH: 'on',
        LOG_LEVEL: 'silent',
      }),
    );
    await use({
      portal,
      tightenBillRates: async () => {
        await sandbox.close();
        sandbox = await startSandbox({
          port,
          dbPath: sandboxDb,
          processingDelayMs: 0,
          blankMaximumBillRate: 'hourly-high',
        });
      },
    });
    await portal.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  },
  baseURL: async ({ lab }, use) => use(lab.portal.url),
});

/** A requisition the sandbox accepts for client 1001: no skills or questions, hourly high 50. */
const requisition = (reference: string, overrides: Record<string, string> = {}) => ({
  requesttype: 'I',
  orgid: '1001',
  clientinternalreq: reference,
  titlerole: 'Night nurse',
  noofopenings: '1',
  engagementtype: '1',
  reqclassid: '101',
  hoursunitsperday: '8',
  daysperweek: '5',
  shortdescription: 'Ward nights.',
  reqownerid: 'mreyes',
  billrangefrom: '50.00',
  billrangeto: '40.00',
  ...overrides,
});

const candidate = (requirementid: string, candemail: string, billrate: string) => ({
  requirementid,
  firstname: 'Ada',
  lastname: 'Lovelace',
  candemail,
  vendorcandidateid: 'VE2E',
  engagementtype: '1',
  iscandindependantcontractor: 'N',
  wascandeveremployedbyclient: 'N',
  billrate,
});

/** Sends a batch typed in the inspector's Compose a call, then saves its call as cases. */
async function sendAndSave(
  page: Page,
  operation: 'requisitionimport' | 'candidates',
  items: unknown[],
  into: ({ newSuite: string } | { suite: string }) & { word: string },
) {
  await page.goto('/inspector');
  await page.getByRole('button', { name: 'Compose a call' }).click();
  const compose = page.getByRole('form', { name: 'Compose a call' });
  await compose.getByLabel('Operation to send').selectOption(operation);
  await compose.getByLabel('Body to send (JSON, as typed)').fill(JSON.stringify(items));
  await compose.getByRole('button', { name: `Send POST ${operation}` }).click();
  await expect(compose.getByRole('status')).toHaveText(/^Answered 202 to /);

  // The call, found by a word of its body.
  await page.goto(`/inspector?method=POST&q=${into.word}`);
  const row = page.locator('.inspector__list tbody tr');
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: `POST ${operation}` }).click();
  const detail = page.locator('.inspector__detail');
  await detail.getByRole('button', { name: 'Save as cases…' }).click();

  const dialog = page.getByRole('dialog', { name: /^Save 1 (requisition|candidate) as cases$/ });
  await expect(dialog).toBeVisible();
  // The call's actual outcome is the case's expectation.
  await expect(dialog).toContainText(/row 1: (Success|New)/);
  if ('newSuite' in into) {
    await dialog.getByLabel('A new suite').check();
    await dialog.getByLabel('Name of the new suite').fill(into.newSuite);
  } else {
    await dialog.getByLabel('A suite of the team’s').check();
    await expect(dialog.getByLabel('Suite', { exact: true })).toHaveValue(/\d+/);
    await expect(dialog.getByLabel('Suite', { exact: true }).locator('option:checked')).toHaveText(
      new RegExp(`^${into.suite} \\(`),
    );
  }
  await expect(dialog.getByLabel(/New values for each run/)).toBeChecked();
  // No one's personal data is kept unless asked for.
  await expect(dialog.getByLabel(/Keep the real personal data/)).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Save the cases' }).click();
  await expect(dialog).toBeHidden();
  await expect(detail.getByRole('status').filter({ hasText: /^Saved 1 case to/ })).toBeVisible();
}

/** Adds a case with the suite page's "Add a case by hand". */
async function addByHand(
  page: Page,
  fields: { kind: string; id: string; name: string; item: unknown; status: string; field?: string },
) {
  const form = page.getByRole('form', { name: 'Add a case by hand' });
  if (!(await form.isVisible())) await page.getByText('Add a case by hand').click();
  await form.getByLabel('Kind', { exact: true }).selectOption({ label: fields.kind });
  await form.getByLabel('Case id', { exact: true }).fill(fields.id);
  await form.getByLabel('Name', { exact: true }).fill(fields.name);
  await form.getByLabel('Item as JSON').fill(JSON.stringify(fields.item));
  await form.getByLabel('Expected status').selectOption(fields.status);
  if (fields.field) await form.getByLabel('Field the message names').fill(fields.field);
  await form.getByRole('button', { name: 'Add the case' }).click();
  await expect(form.getByRole('status')).toHaveText(new RegExp(`^Case “${fields.id}” added`));
}

/** Runs the suite from its page and waits for the run to finish; its run page opened. */
async function runSuite(page: Page, version: number): Promise<void> {
  await page.getByRole('button', { name: `Run version ${version}` }).click();
  await expect(page.getByRole('status').filter({ hasText: /^Run #\d+: finished/ })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('link', { name: /^Open run #\d+$/ }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: /^Run #\d+ of Regression$/ }),
  ).toBeVisible();
}

test('a QA engineer builds a suite from journal calls and cases by hand, runs it twice clean, and sees the case a changed VMS rule breaks', async ({
  page,
  lab,
}) => {
  test.setTimeout(180_000);
  await signIn(page, '/inspector', qaEmail, password);
  await expect(page.getByRole('heading', { level: 1, name: 'Inspector' })).toBeVisible();
  // Suites are in the navigation for QA.
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Suites' }),
  ).toBeVisible();

  // Three calls from the journal, each saved as a case of the suite, the first making it.
  await sendAndSave(page, 'requisitionimport', [requisition('E2ESUITEA')], {
    newSuite: 'Regression',
    word: 'E2ESUITEA',
  });
  await sendAndSave(page, 'requisitionimport', [requisition('E2ESUITEB')], {
    suite: 'Regression',
    word: 'E2ESUITEB',
  });
  await sendAndSave(page, 'candidates', [candidate('40008', 'e2e.suite@example.com', '40.00')], {
    suite: 'Regression',
    word: 'VE2E',
  });

  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Suites' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Suites' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('link', { name: 'Regression' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Regression' })).toBeVisible();
  await expect(page.getByText(/^Version 3, saved/)).toBeVisible();
  const cases = page.locator('.suite-case');
  await expect(cases).toHaveCount(3);
  // Saved with values new for each run.
  await cases.first().locator('summary').click();
  await expect(cases.first().getByLabel(/^Item as JSON/)).toHaveValue(
    /"E2ESUITEA-\{\{run\.id\}\}"/,
  );
  await expect(cases.nth(2).getByLabel('Expected status')).toHaveValue('New');
  // The candidate's name, e-mail and id were generated in place of the person's.
  await cases.nth(2).locator('summary').click();
  const candidateItem = cases.nth(2).getByLabel(/^Item as JSON/);
  await expect(candidateItem).toHaveValue(/"firstname": ?"\{\{unique\.name\}\}"/);
  await expect(candidateItem).toHaveValue(/"candemail": ?"\{\{unique\.email\}\}"/);
  await expect(candidateItem).not.toHaveValue(/Lovelace|e2e\.suite@example\.com|VE2E/);

  // The first case gets an id later cases can refer to.
  await cases.first().getByLabel('Case id', { exact: true }).fill('create-req');
  await addByHand(page, {
    kind: 'Requisition',
    id: 'unknown-class',
    name: 'a req class the client does not have is refused',
    item: requisition('E2E-X-{{run.id}}', { reqclassid: '999' }),
    status: 'Error',
    field: 'reqclassid',
  });
  await addByHand(page, {
    kind: 'Candidate',
    id: 'to-created',
    name: 'a candidate above the hourly high to the requisition the suite creates',
    // Above the created requisition's hourly high of 50: allowed while a blank
    // maximumbillrate means no limit.
    item: candidate('{{create-req.createdId}}', '{{unique.email}}', '60.00'),
    status: 'New',
  });
  await expect(cases).toHaveCount(5);
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Save as version 4' }).click();
  await expect(page.getByText(/^Version 4, saved/)).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: 'Saved as version 4.' })).toBeVisible();

  // Two runs, both clean: the per-run values keep the VMS from seeing duplicates.
  for (const round of [1, 2]) {
    await runSuite(page, 4);
    await expect(page.getByRole('status').filter({ hasText: '5 passed, 0 failed.' })).toBeVisible();
    const verdict = round === 1 ? 'New case' : 'Passing';
    await expect(
      page.locator('.suite-run-cases tbody tr').filter({ hasText: verdict }),
    ).toHaveCount(5);
    if (round === 2) await expectNoAxeViolations(page);
    await page.getByRole('link', { name: 'Back to Regression' }).click();
  }

  // The VMS now reads a blank maximum bill rate as "no": the candidate above the hourly high
  // newly fails, expected New beside the actual Error.
  await lab.tightenBillRates();
  await runSuite(page, 4);
  await expect(page.getByRole('status').filter({ hasText: '4 passed, 1 failed.' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Against the run before' })).toContainText(
    'Newly failing 1',
  );
  const broken = page
    .locator('.suite-run-cases tbody tr')
    .filter({ hasText: 'a candidate above the hourly high' });
  await expect(broken).toContainText('Newly failing');
  await expect(broken).toContainText('Failed');
  const cells = broken.getByRole('cell');
  await expect(cells.nth(2)).toHaveText('New');
  await expect(cells.nth(3)).toContainText('Error');
  await expect(cells.nth(3)).toContainText(
    /billrate: 60\.00 is above the hourly high of requisition \d+ \(50\.00\)/,
  );
  // Only that case changed.
  await page.getByLabel('Only cases that failed or were fixed').check();
  await expect(page.locator('.suite-run-cases tbody tr')).toHaveCount(1);
  await expectNoAxeViolations(page);
});

/** `node build/cli/suite.mjs …` as CI runs it (built by `npm run build`), in its own process. */
function runSuiteCommand(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join('build', 'cli', 'suite.mjs'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

test("a suite file's run from CI is found: by the address the command prints, on Suites, and from the inspector's calls", async ({
  page,
  lab,
}) => {
  test.setTimeout(120_000);
  await signIn(page, '/account', qaEmail, password);
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  // A token of scope Suites is enough for a file's run, and the form says so.
  await page.getByLabel('Name').fill('file runs');
  const suitesScope = page.getByLabel(/^Suites: /);
  await expect(suitesScope).toHaveAccessibleName(/from files \(npm run suite\)/);
  await suitesScope.check();
  await page.getByRole('button', { name: 'Make token' }).click();
  const secret = await page
    .getByRole('region', { name: /Copy your new token/ })
    .getByLabel('Your new token')
    .inputValue();

  const dir = mkdtempSync(join(tmpdir(), 'vms-portal-suite-file-'));
  try {
    const file = join(dir, 'nightly.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'Nightly file',
        cases: [
          {
            id: 'create-req',
            kind: 'requisition',
            item: requisition('E2EFILE-{{run.id}}'),
            expect: { status: 'Success' },
          },
        ],
      }),
    );
    const result = await runSuiteCommand(['run', file, '--portal', lab.portal.url], {
      VMS_PORTAL_TOKEN: secret,
    });
    expect(result.code, result.stderr).toBe(0);
    const address = /^the run in the portal: (\S+)$/m.exec(result.stdout)?.[1] ?? '';
    const runId = /\/suites\/runs\/(\d+)$/.exec(address)?.[1] ?? '';
    expect(runId).not.toBe('');
    const runHeading = page.getByRole('heading', {
      level: 1,
      name: `Run #${runId} of Nightly file`,
    });

    // The printed address opens the run.
    await page.goto(address);
    await expect(runHeading).toBeVisible();
    await expect(page.getByText('a file sent with the run')).toBeVisible();

    // Suites lists it with the runs of suite files.
    await page.goto('/suites');
    const fileRuns = page.getByRole('region', { name: 'Runs of suite files' });
    const row = fileRuns.getByRole('row', { name: new RegExp(`Run #${runId} `) });
    await expect(row).toContainText('Nightly file');
    await expect(row).toContainText(qaEmail);
    await expectNoAxeViolations(page);
    await row.getByRole('link', { name: `Run #${runId}` }).click();
    await expect(runHeading).toBeVisible();

    // Its calls in the inspector link the run.
    await page.goto(`/inspector?run=${runId}`);
    const calls = page.locator('.inspector__list tbody tr');
    await expect(calls.first()).toBeVisible();
    await calls
      .first()
      .getByRole('link', { name: `suite run #${runId}` })
      .click();
    await expect(runHeading).toBeVisible();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('cases saved from a call with a duplicate row pass when the suite is run at once', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signIn(page, '/inspector', qaEmail, password);
  await expect(page.getByRole('heading', { level: 1, name: 'Inspector' })).toBeVisible();

  // A requisition, then a batch whose first row reuses its client internal req (refused as a
  // duplicate) and whose second is new.
  await page.getByRole('button', { name: 'Compose a call' }).click();
  const compose = page.getByRole('form', { name: 'Compose a call' });
  await compose.getByLabel('Operation to send').selectOption('requisitionimport');
  for (const batch of [
    [requisition('E2EDUPA')],
    [requisition('E2EDUPA'), requisition('E2EDUPB')],
  ]) {
    await compose.getByLabel('Body to send (JSON, as typed)').fill(JSON.stringify(batch));
    await compose.getByRole('button', { name: 'Send POST requisitionimport' }).click();
    await expect(compose.getByRole('status')).toHaveText(/^Answered 202 to /);
  }

  // The second call, saved as cases.
  await page.goto('/inspector?method=POST&q=E2EDUPB');
  const row = page.locator('.inspector__list tbody tr');
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: 'POST requisitionimport' }).click();
  const detail = page.locator('.inspector__detail');
  await detail.getByRole('button', { name: 'Save as cases…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Save 2 requisitions as cases' });
  // The dialog says the refused row keeps its values.
  await expect(dialog).toContainText(
    'row 1: Error naming clientinternalreq, with its values as they are',
  );
  await expect(dialog).toContainText('row 2: Success');
  const perRun = dialog.getByLabel(/New values for each run/);
  await expect(perRun).toBeChecked();
  await expect(perRun).toHaveAccessibleName(/a case expecting Error keeps its values/);
  await dialog.getByLabel('A new suite').check();
  await dialog.getByLabel('Name of the new suite').fill('Duplicates');
  await dialog.getByRole('button', { name: 'Save the cases' }).click();
  await expect(dialog).toBeHidden();
  await detail.getByRole('link', { name: /Duplicates/ }).click();

  // Run at once on the same VMS: both cases pass, the duplicate refused again (given a new
  // client internal req, it would be accepted).
  await expect(page.getByRole('heading', { level: 1, name: 'Duplicates' })).toBeVisible();
  await page.getByRole('button', { name: 'Run version 1' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: /^Run #\d+: finished: 2 passed, 0 failed$/ }),
  ).toBeVisible({ timeout: 30_000 });
});
