import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sentAfterBackupListSchema } from '@/domain/sent-after-backup';
import { afterBackupBody } from '@/server/proxy/store/idempotency-keys';
import {
  startCaptureUpstream,
  startTestPortal,
  testConfig,
  type CaptureUpstream,
  type TestPortal,
} from '@/test-support/capture-upstream';
import { addUser, TestBrowser } from '@/test-support/test-browser';

/*
 * GET /api/sent-after-backup on a real portal with sign-in on: the keys a restore wrote back
 * (as npm run restore writes them; backup.test.ts runs the restore itself) are listed to the
 * recruiter who sent them, to admins in full, and to nobody without a session.
 */

const password = 'correct horse battery staple';
let dir: string;
let upstream: CaptureUpstream;
let portal: TestPortal;
const bobsAt = Date.UTC(2026, 10, 27, 8, 51, 12);
const carolsAt = Date.UTC(2026, 10, 27, 9, 2, 0);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'portal-after-backup-'));
  const dbPath = join(dir, 'portal.db');
  upstream = await startCaptureUpstream();
  portal = await startTestPortal(
    testConfig(upstream.url, { AUTH: 'on', PORTAL_DB: dbPath, PORTAL_RATE_LIMIT_PER_MINUTE: '0' }),
  );
  await addUser(dbPath, 'ada@example.com', password, 'admin');
  await addUser(dbPath, 'bob@example.com', password, 'recruiter', [1001]);
  const db = new Database(dbPath);
  const insert = db.prepare<[string, number, number, Buffer]>(
    `INSERT INTO idempotency_keys (key, fingerprint, state, created_at, settled_at, body)
     VALUES (?, 'f', 'unknown', ?, ?, ?)`,
  );
  for (const [key, at, email, batchId] of [
    ['k-bob', bobsAt, 'bob@example.com', 'b-bob'],
    ['k-carol', carolsAt, 'carol@example.com', 'b-carol'],
  ] as const) {
    insert.run(
      key,
      Date.now(),
      at,
      afterBackupBody({ batchId, connection: 'default', email, sentAt: at, itemCount: 3 }),
    );
  }
  // An unknown key of an ordinary lost answer: not a batch sent after a backup.
  db.prepare(
    `INSERT INTO idempotency_keys (key, fingerprint, state, created_at) VALUES ('k-lost', 'f', 'unknown', ?)`,
  ).run(Date.now());
  db.close();
});

afterAll(async () => {
  await portal.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function listAs(email: string | null) {
  const browser = new TestBrowser(portal.url);
  if (email !== null) expect((await browser.signIn(email, password)).status).toBe(200);
  return browser.call('GET', '/api/sent-after-backup');
}

describe('GET /api/sent-after-backup', () => {
  const bobs = {
    batchId: 'b-bob',
    connection: 'default',
    email: 'bob@example.com',
    sentAt: '2026-11-27T08:51:12.000Z',
    itemCount: 3,
  };

  it('lists a recruiter their own batches only', async () => {
    const answer = await listAs('bob@example.com');
    expect(answer.status).toBe(200);
    expect(sentAfterBackupListSchema.parse(answer.json())).toEqual({ batches: [bobs] });
  });

  it('lists an admin every batch, oldest first', async () => {
    const answer = await listAs('ada@example.com');
    expect(answer.status).toBe(200);
    expect(sentAfterBackupListSchema.parse(answer.json())).toEqual({
      batches: [
        bobs,
        {
          ...bobs,
          batchId: 'b-carol',
          email: 'carol@example.com',
          sentAt: '2026-11-27T09:02:00.000Z',
        },
      ],
    });
  });

  it('answers no one without a session', async () => {
    expect((await listAs(null)).status).toBe(401);
  });
});
