import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { RequisitionResultRow } from '@/test-support/sandbox-client';
import {
  call,
  requisitionResultSchema,
  startTestSandbox,
  tempDbPath,
} from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';
import { tsxEnv, tsxLoader } from '@/test-support/tsx-child';

describe('stopping mid-batch and starting again', () => {
  it('resumes the Pending items: none lost, none processed twice', async () => {
    const temp = tempDbPath();
    const items = Array.from({ length: 12 }, () => requisitionInsert());
    try {
      const first = await startTestSandbox({ dbPath: temp.dbPath, processingDelayMs: 25 });
      const batchId = await first.postRequisitions(items);
      let beforeStop: RequisitionResultRow[] = [];
      // Stop once some, but not all, items are done.
      for (;;) {
        beforeStop = await first.requisitionResults(batchId);
        if (beforeStop.some((row) => row.Status === 'Success')) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      await first.close();
      const doneBeforeStop = beforeStop.filter((row) => row.Status !== 'Pending');

      const second = await startTestSandbox({ dbPath: temp.dbPath, processingDelayMs: 0 });
      try {
        const afterRestart = await second.requisitionResults(batchId);
        const pendingAtRestart = afterRestart.filter((row) => row.Status === 'Pending').length;
        expect(pendingAtRestart).toBeGreaterThan(0);

        const rows = await second.processedRequisitions(batchId);
        expect(rows.map((row) => row.Status)).toEqual(items.map(() => 'Success'));
        // Items done before the stop keep their results.
        for (const done of doneBeforeStop) {
          expect(rows.find((row) => row.Row === done.Row)?.Req_Id).toBe(done.Req_Id);
        }
        // Exactly one requisition per item.
        const listed = await second.listRequisitions();
        const cirs = new Set(items.map((item) => item.clientinternalreq));
        const created = listed.filter((record) => cirs.has(record.ClientInternalReq ?? ''));
        expect(created).toHaveLength(items.length);
        expect(new Set(rows.map((row) => row.Req_Id)).size).toBe(items.length);
      } finally {
        await second.close();
      }
    } finally {
      temp.remove();
    }
  });

  it('resumes after the process is killed (SIGKILL) mid-batch', async () => {
    const temp = tempDbPath();
    const items = Array.from({ length: 20 }, () => requisitionInsert());
    // node itself with tsx's loader, not the tsx CLI: the CLI runs the program in a child process,
    // which a SIGKILL to the CLI would leave running.
    const child = spawn(
      process.execPath,
      ['--import', tsxLoader, fileURLToPath(new URL('./main.ts', import.meta.url))],
      {
        // Its own folder, so no .env of the project is read.
        cwd: dirname(temp.dbPath),
        env: {
          ...process.env,
          ...tsxEnv,
          SANDBOX_PORT: '0',
          SANDBOX_DB: temp.dbPath,
          SANDBOX_PROCESSING_DELAY_MS: '20',
          VMS_DATE_FORMAT: 'YYYY-MM-DD',
          VMS_MAX_BATCH: '500',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          const match = /listening on (http:\/\/\S+)/.exec(output);
          if (match?.[1]) resolve(match[1]);
        });
        child.once('exit', (code) => reject(new Error(`sandbox exited with ${code}: ${output}`)));
      });
      const posted = await call(url, '/requisitionimport', { body: items });
      const { batchid } = z.object({ batchid: z.string() }).parse(posted.body);
      let lastSeen: RequisitionResultRow[] = [];
      while (!lastSeen.some((row) => row.Status === 'Success')) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        const result = await call(url, '/requisitionresults', { query: { batchid } });
        lastSeen = z.array(requisitionResultSchema).parse(result.body);
      }
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
      // Killed with most of the batch still to do (an item takes 20 ms).
      expect(lastSeen.filter((row) => row.Status === 'Pending').length).toBeGreaterThan(10);

      const restarted = await startTestSandbox({ dbPath: temp.dbPath });
      try {
        const rows = await restarted.processedRequisitions(batchid);
        expect(rows.map((row) => row.Status)).toEqual(items.map(() => 'Success'));
        const cirs = new Set(items.map((item) => item.clientinternalreq));
        const created = (await restarted.listRequisitions()).filter((r) =>
          cirs.has(r.ClientInternalReq ?? ''),
        );
        expect(created).toHaveLength(items.length);
      } finally {
        await restarted.close();
      }
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      temp.remove();
    }
  });

  it('keeps finished results and the data across a restart', async () => {
    const temp = tempDbPath();
    try {
      const first = await startTestSandbox({ dbPath: temp.dbPath });
      const [row] = await first.importRequisitions([requisitionInsert({ titlerole: 'Survivor' })]);
      await first.close();
      const second = await startTestSandbox({ dbPath: temp.dbPath });
      try {
        expect((await second.requisition(row?.Req_Id ?? '')).TitleRole).toBe('Survivor');
        expect(await second.requisitionResults(row?.Batch_Id ?? '')).toEqual([row]);
      } finally {
        await second.close();
      }
    } finally {
      temp.remove();
    }
  });
});

describe('a full batch', () => {
  it('processes 500 requisitions in order, each exactly once, with the delay at 0', async () => {
    const sandbox = await startTestSandbox({ processingDelayMs: 0 });
    try {
      const items = Array.from({ length: 500 }, (_, i) =>
        requisitionInsert({ titlerole: `Role ${i + 1}` }),
      );
      const rows = await sandbox.importRequisitions(items);
      expect(rows).toHaveLength(500);
      expect(rows.every((row, index) => row.Row === index + 1 && row.Status === 'Success')).toBe(
        true,
      );
      const reqIds = rows.map((row) => Number(row.Req_Id));
      // Processed strictly in order: Req IDs are handed out ascending.
      expect(reqIds).toEqual([...reqIds].sort((a, b) => a - b));
      expect(new Set(reqIds).size).toBe(500);
      const result = await sandbox.call('/requisitionimport', {
        body: [...items, requisitionInsert()].map((item) => ({
          ...item,
          clientinternalreq: `${item.clientinternalreq}-b`,
        })),
      });
      expect(result.status).toBe(400);
    } finally {
      await sandbox.close();
    }
  });
});
