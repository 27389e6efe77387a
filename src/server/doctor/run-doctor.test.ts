import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { doctorReportSchema, type DoctorReport, type ProbeId } from '@/domain/connection-check';
import { sandboxProfile, type VmsProfile } from '@/domain/vms-profile';
import { sandboxDemo, startSandbox, type RunningSandbox } from '@/sandbox/index';
import { freePort } from '@/server/free-port';
import { doctorTarget as targetFor, exampleProfile } from '@/test-support/doctor-target';
import { tempDbPath } from '@/test-support/sandbox-client';
import { runDoctor, SendTestRefused } from './run-doctor';

/*
 * The connection doctor against real VMSs on loopback: the sandbox answering in another VMS's
 * profile (docs/examples/profile-other-vms.json), probed with a profile that is wrong in one way
 * or another, and with the right one; a sandbox whose clock is ten minutes off; servers that
 * refuse, never answer or echo what they were sent.
 */

function probe(report: DoctorReport, id: ProbeId) {
  const found = report.probes.find((result) => result.id === id);
  if (!found) throw new Error(`no ${id} probe in the report`);
  return found;
}

const verdicts = (report: DoctorReport) =>
  Object.fromEntries(report.probes.map((result) => [result.id, result.verdict]));

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function sandboxWith(options: { profile?: VmsProfile; clockSkewMs?: number } = {}) {
  const db = tempDbPath();
  const sandbox = await startSandbox({
    port: 0,
    dbPath: db.dbPath,
    processingDelayMs: 0,
    ...options,
  });
  cleanups.push(db.remove, () => sandbox.close());
  return sandbox;
}

describe('against a VMS of another profile', () => {
  let other: RunningSandbox;
  beforeAll(async () => {
    other = await sandboxWith({ profile: exampleProfile() });
  });

  it('names the signature mismatch when probed with the sandbox profile, and skips what depends on it', async () => {
    const report = doctorReportSchema.parse(
      await runDoctor(targetFor(other.url, sandboxProfile())),
    );
    expect(verdicts(report)).toEqual({
      reachable: 'passed',
      clock: 'passed',
      credentials: 'failed',
      clientOrgs: 'undecided',
      listRecords: 'undecided',
      paging: 'undecided',
      filter: 'undecided',
      resultsPaths: 'undecided',
      dates: 'undecided',
    });
    const credentials = probe(report, 'credentials');
    expect(credentials.finding).toContain('refused the key or the signature');
    expect(credentials.fix).toContain('npm run doctor -- find-recipe');
    expect(credentials.fix).toContain('"signature"');
    expect(probe(report, 'listRecords').finding).toMatch(/^Skipped: .*key and signature/);
    expect(report.verdict).toBe('failed');
  });

  it('names a wrong results path, list field-name style and date formats, each with its fix', async () => {
    const right = exampleProfile();
    const own = sandboxProfile();
    const profile: VmsProfile = {
      ...right,
      paths: { ...right.paths, requisitionresults: own.paths.requisitionresults },
      list: { ...right.list, fieldNames: own.list.fieldNames },
      dates: own.dates,
    };
    const report = await runDoctor(targetFor(other.url, profile));
    expect(verdicts(report)).toEqual({
      reachable: 'passed',
      clock: 'passed',
      credentials: 'passed',
      clientOrgs: 'passed',
      listRecords: 'failed',
      // Skipped: with the records' field names wrong, no Req ID can be compared.
      paging: 'undecided',
      filter: 'undecided',
      resultsPaths: 'failed',
      dates: 'failed',
    });
    const results = probe(report, 'resultsPaths');
    expect(results.finding).toContain('paths.requisitionresults');
    expect(results.finding).not.toContain('paths.candidateresults');
    expect(results.fix).toContain('paths.requisitionresults');
    expect(results.fix).not.toContain('paths.candidateresults');
    const list = probe(report, 'listRecords');
    expect(list.finding).toContain('payload style');
    expect(list.fix).toContain('set list.fieldNames to "payload"');
    const dates = probe(report, 'dates');
    expect(dates.fix).toContain('set dates.dateTimes to "MM/DD/YYYY HH:mm:ss"');
    expect(dates.fix).toContain('set dates.records to "MM/DD/YYYY"');
  });

  it('passes every probe with the right profile, and the test requisition goes through', async () => {
    const report = await runDoctor(targetFor(other.url, exampleProfile()), {
      sendTest: true,
      sendTestPollMs: 50,
    });
    expect(report.probes.filter((result) => result.verdict !== 'passed')).toEqual([]);
    expect(report.probes.map((result) => result.id)).toEqual([
      'reachable',
      'clock',
      'credentials',
      'clientOrgs',
      'listRecords',
      'paging',
      'filter',
      'resultsPaths',
      'dates',
      'sendTest',
    ]);
    const sendTest = probe(report, 'sendTest');
    expect(sendTest.finding).toMatch(/created as Req_Id \d+/);
    // Its two rows, as the VMS's fields name them: the test requisition created, the one without
    // a job title refused with the VMS's message.
    expect(sendTest.evidence[0]).toMatch(
      /^POST api\/v2\/requisitions\/import\?.*: status 20\d, batch /,
    );
    expect(sendTest.evidence.slice(2)).toEqual([
      expect.stringMatching(
        /^Row 1: clientReference "DOCTOR-[0-9A-F]{8}", state read as Success, requisitionId "\d+", detail ""$/,
      ),
      expect.stringMatching(
        /^Row 2: clientReference "DOCTOR-[0-9A-F]{8}-R", state read as Error, requisitionId "", detail ".*[Jj]ob title|titlerole.*"$/,
      ),
    ]);
    expect(report.verdict).toBe('passed');
  });

  it('fails the test send on results keys only the rows can prove, naming each', async () => {
    const wrongIn = (change: (results: VmsProfile['results']['requisition']) => void) => {
      const profile = exampleProfile();
      change(profile.results.requisition);
      return runDoctor(targetFor(other.url, profile), { sendTest: true, sendTestPollMs: 50 });
    };
    const cases: Array<[(results: VmsProfile['results']['requisition']) => void, RegExp]> = [
      [(results) => (results.message = 'reason'), /Set results\.requisition\.message/],
      [(results) => (results.createdId = 'id'), /Set results\.requisition\.createdId/],
      [(results) => (results.reference = 'ref'), /Set results\.requisition\.reference/],
      [(results) => (results.rowNumber = 'position'), /Check results\.requisition\.rowNumber/],
      [
        (results) => (results.statuses = { QUEUED: 'Pending', DONE: 'Success' }),
        /Add "FAILED" to results\.requisition\.statuses/,
      ],
    ];
    for (const [change, fix] of cases) {
      const sendTest = probe(await wrongIn(change), 'sendTest');
      expect(sendTest.verdict, String(fix)).toBe('failed');
      expect(sendTest.fix).toMatch(fix);
    }
  });
});

describe('the clock', () => {
  it('fails when the VMS is ten minutes ahead, saying by how much, and what to do', async () => {
    const skewed = await sandboxWith({ clockSkewMs: 600_000 });
    const report = await runDoctor(targetFor(skewed.url, sandboxProfile()));
    const clock = probe(report, 'clock');
    expect(clock.verdict).toBe('failed');
    expect(clock.finding).toMatch(/\b(599|600|601) s ahead of this machine/);
    expect(clock.fix).toContain('NTP');
    expect(probe(report, 'credentials').verdict).toBe('undecided');
  });

  it('warns, without failing, at two minutes', async () => {
    const skewed = await sandboxWith({ clockSkewMs: -120_000 });
    const report = await runDoctor(targetFor(skewed.url, sandboxProfile()));
    expect(probe(report, 'clock')).toMatchObject({ verdict: 'undecided' });
    expect(probe(report, 'clock').finding).toMatch(/\b(119|120|121) s behind/);
    // Within the sandbox's 300 s the calls still go through.
    expect(probe(report, 'credentials').verdict).toBe('passed');
  });
});

describe('the test requisition', () => {
  it('is refused on a production connection unless forced, before anything is sent', async () => {
    let calls = 0;
    const server = createHttpServer((_request, response) => {
      calls += 1;
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as { port: number };
    const target = targetFor(`http://127.0.0.1:${port}`, sandboxProfile(), { production: true });
    await expect(runDoctor(target, { sendTest: true })).rejects.toBeInstanceOf(SendTestRefused);
    expect(calls).toBe(0);
    // The probes alone are fine on production.
    await runDoctor(target);
    expect(calls).toBeGreaterThan(0);
  });
});

describe('secrets', () => {
  let echo: HttpServer;
  const seen: string[] = [];
  beforeAll(async () => {
    // A VMS that refuses every call and quotes everything it was sent in its message.
    echo = createHttpServer((request, response) => {
      const headers = JSON.stringify(request.headers);
      seen.push(String(request.headers['x-signature'] ?? ''));
      response.statusCode = 403;
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          error: { message: `refused ${headers} (secret ${sandboxDemo.apiSecret})` },
        }),
      );
    });
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => echo.close(() => resolve())));
  });

  it('never reach the report, even when the VMS echoes them', async () => {
    const { port } = echo.address() as { port: number };
    const report = await runDoctor(targetFor(`http://127.0.0.1:${port}`, sandboxProfile()));
    const text = JSON.stringify(report);
    expect(probe(report, 'credentials').verdict).toBe('failed');
    expect(text).toContain('[redacted]');
    expect(seen.length).toBeGreaterThan(0);
    for (const secret of [sandboxDemo.apiKey, sandboxDemo.apiSecret, ...seen]) {
      expect(secret.length).toBeGreaterThan(8);
      expect(text).not.toContain(secret);
    }
  });
});

describe('an unreachable VMS', () => {
  it('names a refused connection and what to check', async () => {
    const port = await freePort();
    const report = await runDoctor(targetFor(`http://127.0.0.1:${port}`, sandboxProfile()));
    expect(probe(report, 'reachable')).toMatchObject({ verdict: 'failed' });
    expect(probe(report, 'reachable').finding).toContain('Connection refused');
    expect(probe(report, 'reachable').fix).toContain('port');
    expect(probe(report, 'clock').finding).toMatch(/^Skipped/);
    expect(report.verdict).toBe('failed');
  });

  it('names a host name that does not resolve', async () => {
    const report = await runDoctor(targetFor('http://doctor-check.invalid', sandboxProfile()));
    expect(probe(report, 'reachable').finding).toContain('Host name not found');
    expect(probe(report, 'reachable').fix).toContain('host name');
  });

  it('names a VMS that takes the connection and never answers', async () => {
    const sockets = new Set<Socket>();
    const silent: NetServer = createNetServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          for (const socket of sockets) socket.destroy();
          silent.close(() => resolve());
        }),
    );
    const { port } = silent.address() as { port: number };
    const report = await runDoctor(
      targetFor(`http://127.0.0.1:${port}`, sandboxProfile(), { timeoutMs: 300 }),
    );
    expect(probe(report, 'reachable').finding).toMatch(/^Timeout: .* no HTTP answer within 300 ms/);
    expect(probe(report, 'reachable').fix).toContain('VMS_TIMEOUT_MS');
  });
});
