import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BodyToKeep, JournalRecord } from '@/server/journal/store/journal-store';
import { openAtSchemaVersion } from '@/test-support/older-schema';
import { migrations } from './migrations';
import { openPortalStores } from './portal-stores';

/*
 * The journal's search index merges 16 segments of a size at a time (decision 048): a database
 * made before that migration is upgraded to it, and finds what it held before.
 */

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'journal-merges-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const merges = migrations.findIndex((migration) => migration.name === 'journal search merges');

function body(text: string): BodyToKeep {
  const bytes = Buffer.from(text);
  return {
    sha256: createHash('sha256').update(bytes).digest(),
    size: bytes.length,
    kept: bytes,
    truncated: false,
    redacted: false,
  };
}

function call(reference: string): JournalRecord {
  return {
    at: 1_760_000_000_000,
    operation: 'requisitionimport',
    method: 'POST',
    path: '/api/vms/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001',
    url: 'http://vms.example/requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001',
    clientOrgId: 1001,
    vendorOrgId: 9001,
    itemCount: 1,
    batchId: null,
    idempotencyKey: null,
    replayed: false,
    status: 202,
    upstreamStatus: 202,
    outcome: 'forwarded',
    errorCode: null,
    failure: null,
    latencyMs: 12.5,
    replayOf: null,
    unchecked: false,
    requestBody: body(`[{"clientinternalreq":"${reference}","titlerole":"Welder"}]`),
    responseBody: null,
    responseHeaders: { 'content-type': 'application/json' },
    sentBy: null,
  };
}

/** FTS5's automerge as the index's own config table holds it; null for its default (4). */
function automerge(file: string): unknown {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare("SELECT v FROM journal_search_config WHERE k = 'automerge'").get() as
      { v: unknown } | undefined;
    return row?.v ?? null;
  } finally {
    db.close();
  }
}

it('sets automerge 16 on a database from before, whose calls are still found by a word', async () => {
  expect(merges).toBeGreaterThan(0);
  const target = { portalDb: join(dir, 'portal.db'), databaseUrl: null };
  const old = await openAtSchemaVersion(target, merges);
  try {
    await old.journal.write([call('REQ-2026-0042')], []);
  } finally {
    await old.close();
  }
  expect(automerge(target.portalDb)).toBeNull();

  const upgraded = await openPortalStores(target);
  try {
    expect(automerge(target.portalDb)).toBe(16);
    await upgraded.journal.write([call('REQ-2026-0043')], []);
    const found = await upgraded.journal.list(
      { from: undefined, to: undefined, q: 'REQ-2026-0042' },
      { order: 'newest', from: null, limit: 10 },
    );
    expect(found).toHaveLength(1);
    const both = await upgraded.journal.list(
      { from: undefined, to: undefined, q: 'welder' },
      { order: 'newest', from: null, limit: 10 },
    );
    expect(both).toHaveLength(2);
  } finally {
    await upgraded.close();
  }
});
