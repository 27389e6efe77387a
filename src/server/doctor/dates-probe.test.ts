import { createServer, type Server } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { doctorReportSchema, type DoctorReport } from '@/domain/connection-check';
import { sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { startSandbox } from '@/sandbox/index';
import { doctorTarget } from '@/test-support/doctor-target';
import { tempDbPath } from '@/test-support/sandbox-client';
import { runDoctor } from './run-doctor';

/*
 * The doctor's dates probe passes only when the records prove the profile's pattern: a day above
 * 12 rules month-first out, and the other way round. Against the sandbox writing its date-times
 * day first (its seeded records include days above 12), and against a small VMS whose every
 * record could be read either way.
 */

const dayFirst = 'DD/MM/YYYY HH:mm:ss';
const monthFirst = 'MM/DD/YYYY HH:mm:ss';

function withDateTimes(dateTimes: string): VmsProfile {
  const own = sandboxProfile();
  return { ...own, dates: { ...own.dates, dateTimes } };
}

const datesOf = (report: DoctorReport) => {
  const found = doctorReportSchema.parse(report).probes.find((probe) => probe.id === 'dates');
  if (!found) throw new Error('no dates probe');
  return found;
};

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe('a VMS that writes its date-times day first', () => {
  async function dayFirstSandbox() {
    const db = tempDbPath();
    const sandbox = await startSandbox({
      port: 0,
      dbPath: db.dbPath,
      processingDelayMs: 0,
      profile: withDateTimes(dayFirst),
    });
    cleanups.push(db.remove, () => sandbox.close());
    return sandbox;
  }

  it('fails a month-first profile, naming the day-first pattern to set', async () => {
    const sandbox = await dayFirstSandbox();
    const dates = datesOf(await runDoctor(doctorTarget(sandbox.url, withDateTimes(monthFirst))));
    expect(dates.verdict).toBe('failed');
    expect(dates.finding).toContain(`do not read as ${monthFirst} (dates.dateTimes)`);
    expect(dates.fix).toContain(`set dates.dateTimes to "${dayFirst}"`);
  });

  it('passes a day-first profile, citing a record no month-first reading can take', async () => {
    const sandbox = await dayFirstSandbox();
    const dates = datesOf(await runDoctor(doctorTarget(sandbox.url, withDateTimes(dayFirst))));
    expect(dates.verdict).toBe('passed');
    expect(dates.finding).toContain('and only so');
    const proof = dates.evidence.find((line) => line.endsWith(`cannot be ${monthFirst}`));
    // The seeded requisition created on 15 March 2026 is written 15/03/2026.
    expect(proof).toMatch(/^"(1[3-9]|2\d|3[01])\/\d\d\/2026 \d\d:\d\d:\d\d" cannot be/);
  });
});

describe('a VMS whose every date could be read day first or month first', () => {
  let vms: Server;
  async function ambiguousVms(): Promise<string> {
    // Days and months all 12 or less: 05/03 is 5 March or 3 May.
    const records = [
      {
        Req_Id: 501,
        TitleRole: 'Nurse',
        Req_Created_Date_Time: '05/03/2026 09:00:00',
        Req_Updated_Date_Time: '02/04/2026 10:00:00',
      },
      {
        Req_Id: 502,
        TitleRole: 'Porter',
        Req_Created_Date_Time: '11/01/2026 08:30:00',
        Req_Updated_Date_Time: '12/02/2026 11:15:00',
      },
    ];
    vms = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://vms');
      response.setHeader('content-type', 'application/json');
      if (url.pathname !== '/requisitions') {
        response.statusCode = 404;
        response.end(JSON.stringify({ error: { message: 'No batch with that id.' } }));
        return;
      }
      const wanted = url.searchParams.get('filtervalue');
      response.end(
        JSON.stringify(
          wanted === null ? records : records.filter((r) => String(r.Req_Id) === wanted),
        ),
      );
    });
    await new Promise<void>((resolve) => vms.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => vms.close(() => resolve())));
    const { port } = vms.address() as { port: number };
    return `http://127.0.0.1:${port}`;
  }

  it('is undecided, naming the ambiguity and how a test requisition settles it', async () => {
    const url = await ambiguousVms();
    const dates = datesOf(await runDoctor(doctorTarget(url, withDateTimes(dayFirst))));
    expect(dates.verdict).toBe('undecided');
    expect(dates.finding).toContain(`reads as ${dayFirst} (dates.dateTimes) and as ${monthFirst}`);
    expect(dates.fix).toContain('Send one test requisition (--send-test-requisition)');
    expect(dates.fix).toContain('the 25th');
  });

  it('on production, says to check the API reference instead of sending anything', async () => {
    const url = await ambiguousVms();
    const dates = datesOf(
      await runDoctor(doctorTarget(url, withDateTimes(monthFirst), { production: true })),
    );
    expect(dates.verdict).toBe('undecided');
    expect(dates.fix).not.toContain('--send-test-requisition');
    expect(dates.fix).toContain('API reference');
  });
});
