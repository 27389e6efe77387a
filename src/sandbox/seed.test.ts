import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { validateRequisitionItem } from '@/domain';
import { startTestSandbox, tempDbPath } from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';
import { openSandboxDatabase, resetSandboxDatabase } from './database';
import { loadReference } from './reference';
import { seedAccounts, seedClients } from './seed';
import { seedRequisitions } from './seed-requisitions';

const seeded = seedRequisitions(seedClients);

describe('the seed', () => {
  it('has about twenty requisitions in every status, for both clients', () => {
    expect(seeded.length).toBeGreaterThanOrEqual(20);
    for (const clientOrgId of [1001, 1002]) {
      const statuses = new Set(
        seeded.filter((r) => r.clientOrgId === clientOrgId).map((r) => r.record.reqstatus),
      );
      expect([...statuses].sort()).toEqual(['4', '5', '6', '8', '9']);
    }
  });

  it('holds requisitions the domain would accept as an Insert', () => {
    for (const requisition of seeded) {
      const result = validateRequisitionItem(
        { ...requisition.record, requesttype: 'I', reqstatus: '' },
        { dateFormat: 'YYYY-MM-DD' },
      );
      expect(result, `seed requisition ${requisition.reqId}`).toMatchObject({ ok: true });
    }
  });

  it('reads back from the database exactly as seeded', () => {
    const temp = tempDbPath();
    const db = openSandboxDatabase(temp.dbPath);
    try {
      const reference = loadReference(db);
      expect([...reference.clients.values()]).toEqual(seedClients);
      expect([...reference.accounts.values()]).toEqual(seedAccounts);
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    } finally {
      db.close();
      temp.remove();
    }
  });

  it('is documented in docs/sandbox.md: every id, code, path and user a form needs', () => {
    const docs = readFileSync(new URL('../../docs/sandbox.md', import.meta.url), 'utf8');
    const quoted: string[] = [];
    for (const client of seedClients) {
      quoted.push(String(client.orgId), ...client.subOrgs.map((org) => String(org.orgId)));
      for (const reqClass of client.reqClasses) quoted.push(String(reqClass.id), reqClass.fullPath);
      for (const user of client.users)
        quoted.push(user.userId, user.clientInternalId, user.firstName, user.lastName);
      for (const refs of Object.values(client.accounting)) {
        for (const ref of refs) quoted.push(String(ref.id), ref.refCode);
      }
      for (const list of Object.values(client.choices))
        for (const choice of list) quoted.push(choice.label);
    }
    for (const account of seedAccounts) quoted.push(account.apiKey, account.secret);
    for (const requisition of seeded)
      quoted.push(String(requisition.reqId), requisition.clientInternalReq);
    const missing = quoted.filter(
      (text) => !docs.includes(text.replaceAll('|', '\\|')) && !docs.includes(text),
    );
    expect(missing).toEqual([]);
  });
});

describe('resetting the database', () => {
  it('drops everything made since and restores the seed', async () => {
    const temp = tempDbPath();
    try {
      const first = await startTestSandbox({ dbPath: temp.dbPath });
      const [row] = await first.importRequisitions([requisitionInsert()]);
      expect(row?.Status).toBe('Success');
      await first.close();

      resetSandboxDatabase(temp.dbPath);
      const second = await startTestSandbox({ dbPath: temp.dbPath });
      try {
        const listed = await second.listRequisitions();
        expect(listed.map((r) => r.Req_Id)).not.toContain(row?.Req_Id);
        expect(listed).toHaveLength(seeded.filter((r) => r.clientOrgId === 1001).length);
        const results = await second.call('/requisitionresults', {
          query: { batchid: row?.Batch_Id ?? '' },
        });
        expect(results.status).toBe(404);
      } finally {
        await second.close();
      }
    } finally {
      temp.remove();
    }
  });

  it('refuses a database of another schema version, saying how to reset it', () => {
    const temp = tempDbPath();
    try {
      openSandboxDatabase(temp.dbPath).close();
      const db = new Database(temp.dbPath);
      db.pragma('user_version = 99');
      db.close();
      expect(() => openSandboxDatabase(temp.dbPath)).toThrow(
        /schema version 99.*npm run sandbox -- --reset/,
      );
    } finally {
      temp.remove();
    }
  });
});
