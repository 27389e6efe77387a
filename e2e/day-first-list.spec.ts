import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, type Browser, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import { profilePresets, readProfile } from '@/domain/vms-profile';
import {
  resetSandboxDatabase,
  sandboxDemo,
  startSandbox,
  type RunningSandbox,
} from '@/sandbox/index';
import { loadConfig } from '@/server/config';
import { startPortal } from '@/server/start';
import { requisitionInsert } from '@/test-support/test-data';
import { colleagueAmends, insertRequisitions } from './support/colleague';
import { journeyTest as test, openPage } from './support/fixtures';
import { otherProfilePath } from './support/two-connections';

/*
 * A VMS that writes its record times day first (DD/MM/YYYY HH:mm:ss) and pages its list at 50,
 * holding well over two pages of requisitions, most of them last updated on a day above 12. A
 * portal told so lists every one of them, on the right day, and a refresh shows a colleague's
 * changes made at the VMS. A portal told the times are month first shows none of them as another
 * date, and loses no requisition on a refresh.
 */

const clientOrgId = 1001;
/** Requisitions added to the sandbox's seed, so the list runs to three pages and more. */
const extra = 125;
/** The browser's zone: nine hours ahead of UTC all year, so a late UTC time is the next day here. */
const timezoneId = 'Asia/Tokyo';
const zoneOffsetMs = 9 * 3_600_000;
const zoneNames = '(?:GMT\\+9|JST)';

let dir: string;
let dbPath: string;
let sandbox: RunningSandbox;
let dayFirst: Awaited<ReturnType<typeof startPortal>>;
let monthFirst: Awaited<ReturnType<typeof startPortal>>;

const title = (n: number) => `Day-first role ${String(n).padStart(3, '0')}`;
const reference = (n: number) => `DF-${String(n).padStart(3, '0')}`;
const iso = (year: number, month: number, day: number, hour: number, minute: number) =>
  `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00Z`;

/** Created and last updated in 2025 (always in the past), each on a day from 13 to 27. */
function seededTimes(n: number) {
  const month = 1 + (n % 10);
  return {
    created: iso(2025, month, 13 + (n % 15), 8 + (n % 9), (n * 7) % 60),
    updated: iso(2025, month + 1, 13 + ((n * 4) % 15), 10 + (n % 14), (n * 11) % 60),
  };
}

/** Adds `extra` requisitions to the seed, each a copy of NW-REQ-0001 with its own title and times. */
function seedMany(path: string): void {
  resetSandboxDatabase(path);
  const db = new Database(path);
  try {
    const { record } = db
      .prepare<[], { record: string }>('SELECT record FROM requisitions WHERE req_id = 40001')
      .get()!;
    const insert = db.prepare(
      `INSERT INTO requisitions
         (client_org_id, org_id, client_internal_req, created_at, updated_at, record)
       VALUES (?, ?, ?, ?, ?, ?)`,
    );
    db.transaction(() => {
      for (let n = 1; n <= extra; n += 1) {
        const { created, updated } = seededTimes(n);
        const fields = {
          ...(JSON.parse(record) as Record<string, string>),
          titlerole: title(n),
          clientinternalreq: reference(n),
        };
        insert.run(
          clientOrgId,
          clientOrgId,
          reference(n),
          created,
          updated,
          JSON.stringify(fields),
        );
      }
    })();
  } finally {
    db.close();
  }
}

/** What the VMS holds, read from its own database, not through the portal. */
function atTheVms(): {
  count: number;
  /** Requisitions with a created or updated time at all. */
  withTimes: number;
  /** Requisitions with a created or updated time on a day above 12 (never a month). */
  withDayAbove12: number;
  updatedOf(title: string): string;
} {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const { count } = db
      .prepare<[number], { count: number }>(
        'SELECT COUNT(*) AS count FROM requisitions WHERE client_org_id = ?',
      )
      .get(clientOrgId)!;
    const times = db
      .prepare<[number], { created: string | null; updated: string | null }>(
        'SELECT created_at AS created, updated_at AS updated FROM requisitions WHERE client_org_id = ?',
      )
      .all(clientOrgId)
      .map((row) => [row.created ?? '', row.updated ?? ''].filter((time) => time !== ''));
    const rows = db
      .prepare<[number], { title: string; updatedAt: string }>(
        "SELECT json_extract(record, '$.titlerole') AS title, updated_at AS updatedAt FROM requisitions WHERE client_org_id = ?",
      )
      .all(clientOrgId);
    const byTitle = new Map(rows.map((row) => [row.title, row.updatedAt]));
    return {
      count,
      withTimes: times.filter((own) => own.length > 0).length,
      // Stored as ISO 8601 UTC; the VMS writes the same day, its zone being UTC.
      withDayAbove12: times.filter((own) => own.some((time) => Number(time.slice(8, 10)) > 12))
        .length,
      updatedOf: (wanted) => {
        const found = byTitle.get(wanted);
        if (found === undefined) throw new Error(`No requisition titled ${wanted} at the VMS.`);
        return found;
      },
    };
  } finally {
    db.close();
  }
}

const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * How a stored UTC time reads on a Tokyo clock in US English ("Jul 18, 2025, 12:45 AM GMT+9"),
 * worked out here by hand, as a pattern (the space before AM may be a narrow one).
 */
function shownInTokyo(stored: string): RegExp {
  const wall = new Date(Date.parse(stored) + zoneOffsetMs);
  const hour = wall.getUTCHours();
  const hour12 = String(hour % 12 === 0 ? 12 : hour % 12).padStart(2, '0');
  const minute = String(wall.getUTCMinutes()).padStart(2, '0');
  return new RegExp(
    `^${months[wall.getUTCMonth()]} ${wall.getUTCDate()}, ${wall.getUTCFullYear()}, ${hour12}:${minute}\\s${hour < 12 ? 'AM' : 'PM'} ${zoneNames}$`,
  );
}

/** The profile of the documented example VMS (paged at 50), with its dates as `dateTimes` says. */
function profileFile(name: string, dateTimes: string): string {
  const profile = JSON.parse(readFileSync(otherProfilePath, 'utf8')) as Record<string, unknown>;
  profile.dates = { outbound: 'DD/MM/YYYY', records: 'DD/MM/YYYY', dateTimes, timeZone: 'UTC' };
  const file = join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(profile));
  return file;
}

function portalFor(profile: string, name: string) {
  return startPortal(
    loadConfig({
      PORT: '0',
      PORTAL_DB: join(dir, `${name}.db`),
      VMS_BASE_URL: sandbox.url,
      VMS_API_KEY: sandboxDemo.apiKey,
      VMS_API_SECRET: sandboxDemo.apiSecret,
      VMS_CLIENT_ORGS: String(clientOrgId),
      VMS_VENDOR_ORG_ID: '9001',
      VMS_PRODUCTION: 'off',
      VMS_PROFILE: profile,
      LOG_LEVEL: 'silent',
    }),
  );
}

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vms-portal-day-first-'));
  dbPath = join(dir, 'vms.db');
  seedMany(dbPath);
  const vmsProfile = profileFile('vms', 'DD/MM/YYYY HH:mm:ss');
  const reading = readProfile(JSON.parse(readFileSync(vmsProfile, 'utf8')), profilePresets);
  if ('problems' in reading) throw new Error(reading.problems.join('; '));
  expect(reading.profile.list.paging).toMatchObject({ style: 'page', pageSize: 50 });
  sandbox = await startSandbox({
    host: '127.0.0.1',
    port: 0,
    dbPath,
    profile: reading.profile,
    processingDelayMs: 0,
  });
  dayFirst = await portalFor(vmsProfile, 'day-first');
  monthFirst = await portalFor(profileFile('wrong', 'MM/DD/YYYY HH:mm:ss'), 'month-first');
});

test.afterAll(async () => {
  await dayFirst?.close();
  await monthFirst?.close();
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function openList(browser: Browser, url: string): Promise<Page> {
  const context = await browser.newContext({ baseURL: url, timezoneId, locale: 'en-US' });
  const page = await openPage(context);
  await page.goto('/requisitions');
  await expect(page.getByRole('columnheader').nth(6)).toHaveText(/Last updated/);
  return page;
}

const shownStatus = (page: Page) => page.getByRole('status').filter({ hasText: /shown/ });

async function expectShown(page: Page, count: number): Promise<void> {
  await expect(shownStatus(page)).toHaveText(
    `${count.toLocaleString('en-US')} requisitions shown.`,
  );
}

/** The "Last updated" cell of the one requisition with this title (searched for by it). */
async function lastUpdatedOf(page: Page, wanted: string) {
  await page.getByLabel('Search titles').fill(wanted);
  const rows = page.getByRole('row').filter({ hasText: wanted });
  await expect(rows).toHaveCount(1);
  return rows.getByRole('cell').nth(6);
}

/** Every created and updated time of the whole list, as the portal hands it to the page, unread. */
async function expectNoTimeRead(page: Page): Promise<void> {
  const answer = await page.request.get(
    `/api/vms/requisitions?Client_Org_Id=${clientOrgId}&Vendor_Org_Id=9001`,
  );
  expect(answer.status()).toBe(200);
  const records = (await answer.json()) as Array<Record<string, string>>;
  expect(records).toHaveLength(atTheVms().count);
  const times = records.flatMap((record) => [
    record.Req_Created_Date_Time,
    record.Req_Updated_Date_Time,
  ]);
  expect(
    times.filter((time) => !/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/.test(time ?? '')),
  ).toEqual([]);
}

/**
 * The notice above the list of how many requisitions' dates were not read (none: no notice), with
 * sign-in off, so the Connections page is linked.
 */
async function expectUnreadableNotice(page: Page, count: number): Promise<void> {
  const notice = page.getByRole('region', { name: 'Some dates are shown as the VMS wrote them' });
  if (count === 0) {
    await expect(notice).toHaveCount(0);
    return;
  }
  await expect(notice).toContainText(
    `The dates of ${count.toLocaleString('en-US')} ${count === 1 ? 'requisition' : 'requisitions'} cannot be read with this connection's profile, so they are shown as the VMS wrote them (⚠).`,
  );
  await expect(notice).toContainText('dates.dateTimes');
  await expect(notice.getByRole('link', { name: 'Connections page' })).toHaveAttribute(
    'href',
    '/connections',
  );
}

const refresh = (page: Page) => page.getByRole('button', { name: 'Refresh', exact: true });

test('a day-first VMS paging at 50: the first visit lists every requisition on its right day', async ({
  browser,
}) => {
  const page = await openList(browser, dayFirst.url);
  const vms = atTheVms();
  expect(vms.count).toBeGreaterThanOrEqual(130);
  await expectShown(page, vms.count);
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectUnreadableNotice(page, 0);

  // Last updated on the 13th to the 27th, some late enough in UTC to be the next day in Tokyo.
  for (const n of [1, 7, 58, 124]) {
    const stored = vms.updatedOf(title(n));
    expect(Number(stored.slice(8, 10))).toBeGreaterThan(12);
    const cell = await lastUpdatedOf(page, title(n));
    await expect(cell.locator('time')).toHaveAttribute('datetime', stored);
    await expect(cell).toHaveText(shownInTokyo(stored));
  }
  await page.context().close();
});

test('a refresh shows what a colleague amended and added at the day-first VMS', async ({
  browser,
}) => {
  const page = await openList(browser, dayFirst.url);
  await expectShown(page, atTheVms().count);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/vms/requisitions')) asked.push(request.url());
  });

  const amended = [
    { n: 3, title: 'Night-shift platform lead' },
    { n: 99, title: 'Payments architect' },
  ];
  for (const change of amended) {
    await colleagueAmends(page, reference(change.n), { titlerole: change.title });
  }
  const added = ['Day-first newcomer A', 'Day-first newcomer B', 'Day-first newcomer C'];
  await insertRequisitions(
    page,
    added.map((titlerole) =>
      requisitionInsert({ titlerole, startdate: '01/02/2027', enddate: '30/07/2027' }),
    ),
  );

  await refresh(page).click();
  await expect(refresh(page)).toBeEnabled();
  const vms = atTheVms();
  await expectShown(page, vms.count);
  await expect(page.getByRole('alert')).toHaveCount(0);
  // One refresh, and it asked only for what changed since the newest update the page held.
  expect(asked).toHaveLength(1);
  expect(new URL(asked[0]!).searchParams.get('filterfield')).toBe('Req_Updated_Date_Time');

  for (const change of amended) {
    await expect(await lastUpdatedOf(page, change.title)).toHaveText(
      shownInTokyo(vms.updatedOf(change.title)),
    );
    await page.getByLabel('Search titles').fill(title(change.n));
    await expect(page.getByRole('row').filter({ hasText: title(change.n) })).toHaveCount(0);
  }
  for (const name of added) {
    await expect(await lastUpdatedOf(page, name)).toHaveText(shownInTokyo(vms.updatedOf(name)));
  }
  await page.context().close();
});

test('a month-first profile on the day-first VMS shows no date wrong and loses nothing on a refresh', async ({
  browser,
}) => {
  const page = await openList(browser, monthFirst.url);
  await expectShown(page, atTheVms().count);
  const table = page.getByRole('table');
  // Not one time of the list read: each is shown as the VMS wrote it, marked.
  await expect(
    table.getByRole('img', { name: /Not a date and time the portal can read/ }).first(),
  ).toBeVisible();
  await expect(table.locator('time')).toHaveCount(0);
  // Nor any of the rows not drawn: the list as the page received it holds no time read.
  await expectNoTimeRead(page);
  // So the list counts every requisition with a time at all: those with a day above 12, which
  // prove month first wrong, and with them the rest, which would read as other dates.
  expect(atTheVms().withDayAbove12).toBeGreaterThan(0);
  await expectUnreadableNotice(page, atTheVms().withTimes);

  // Last updated 12 June 2026, written 12/06/2026: read month first it would be 6 December.
  const seeded = await lastUpdatedOf(page, 'Staff Accountant');
  await expect(seeded).toContainText('12/06/2026 09:10:00');
  await expect(seeded.getByRole('img')).toHaveAccessibleName(
    /Not a date and time the portal can read/,
  );
  await expect(seeded).not.toContainText(/Dec/);
  // One whose day is above 12 cannot be read month first at all.
  const late = await lastUpdatedOf(page, title(7));
  const stored = atTheVms().updatedOf(title(7));
  const written = `${stored.slice(8, 10)}/${stored.slice(5, 7)}/${stored.slice(0, 4)} ${stored.slice(11, 19)}`;
  await expect(late).toContainText(written);
  await expect(late.locator('time')).toHaveCount(0);

  // A colleague adds two at the VMS (through the day-first portal, as the VMS's own user).
  const colleague = await openPage(await browser.newContext({ baseURL: dayFirst.url, timezoneId }));
  const added = ['Month-first check A', 'Month-first check B'];
  await insertRequisitions(
    colleague,
    added.map((titlerole) =>
      requisitionInsert({ titlerole, startdate: '01/02/2027', enddate: '30/07/2027' }),
    ),
  );
  await colleague.context().close();

  await page.getByLabel('Search titles').fill('');
  await refresh(page).click();
  await expect(refresh(page)).toBeEnabled();
  await expectShown(page, atTheVms().count);
  for (const name of added) {
    await expect((await lastUpdatedOf(page, name)).getByRole('img')).toHaveAccessibleName(
      /Not a date and time the portal can read/,
    );
  }
  await expect(table.locator('time')).toHaveCount(0);
  await expectNoTimeRead(page);
  // The count follows the list: the two added are counted too.
  await page.getByLabel('Search titles').fill('');
  await expectUnreadableNotice(page, atTheVms().withTimes);
  await page.context().close();
});
