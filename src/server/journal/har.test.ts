import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '@/domain/journal';
import { harSchema } from '@/test-support/har-schema';
import { acceptedImport } from '@/test-support/journal-calls';
import { harEntry, harTimings } from './har';

const orgs = '?Client_Org_Id=1001&Vendor_Org_Id=9001';
const body = {
  text: '[{"titlerole":"Analyst"}]',
  encoding: 'utf8',
  size: 25,
  sha256: '0'.repeat(64),
  truncated: false,
  redacted: false,
} as const;

function entry(overrides: Partial<JournalEntry> = {}): JournalEntry {
  return {
    id: 7,
    at: '2026-11-20T10:00:00.000Z',
    ...acceptedImport,
    batchId: 'rb_1',
    idempotencyKey: 'key-7',
    latencyMs: 120.4,
    requestSize: 25,
    responseSize: null,
    sentBy: null,
    connection: null,
    traceId: null,
    suiteRun: null,
    url: `https://vms.example/api/requisitionimport${orgs}`,
    requestBody: body,
    responseHeaders: { 'content-type': 'application/json' },
    responseBody: null,
    firstByteMs: 95.3,
    lateAnswer: null,
    ...overrides,
  };
}

const secretHeader = /x-api-key|x-signature|authorization|cookie|csrf|secret/i;

describe('the HAR of a call', () => {
  it('separates waiting for the VMS’s first byte from receiving its answer', () => {
    const har = harEntry(entry(), 'http://127.0.0.1:8787');
    expect(har.timings).toEqual({ send: 0, wait: 95.3, receive: 25.1 });
    expect(har.time).toBe(120.4);
    expect(
      harSchema.parse({
        log: { version: '1.2', creator: { name: 't', version: '1' }, entries: [har] },
      }),
    ).toBeTruthy();
  });

  it('is all waiting when no answer came from the VMS, or its first byte is not known', () => {
    for (const call of [
      entry({ firstByteMs: null }),
      entry({ outcome: 'refused', status: 403, firstByteMs: null }),
      entry({ firstByteMs: 500 }),
    ]) {
      const timings = harTimings(call);
      expect(timings).toEqual({ send: 0, wait: call.latencyMs, receive: 0 });
    }
  });

  it('carries the headers sent to the VMS, less the signing ones', () => {
    const har = harEntry(entry(), 'http://127.0.0.1:8787');
    expect(har.request.headers).toEqual([
      { name: 'host', value: 'vms.example' },
      { name: 'content-length', value: '25' },
      { name: 'accept', value: 'application/json' },
      { name: 'content-type', value: 'application/json' },
    ]);
    const get = harEntry(
      entry({
        method: 'GET',
        operation: 'requisitions',
        requestBody: null,
        url: `https://vms.example/api/requisitions${orgs}`,
      }),
      'http://127.0.0.1:8787',
    );
    expect(get.request.headers).toEqual([
      { name: 'host', value: 'vms.example' },
      { name: 'accept', value: 'application/json' },
    ]);
    for (const { name } of [...har.request.headers, ...get.request.headers]) {
      expect(name).not.toMatch(secretHeader);
    }
    expect(har.comment).toContain('x-api-key and x-signature');
  });

  it('carries the headers a refused call brought the portal that the journal knows', () => {
    const har = harEntry(
      entry({
        outcome: 'refused',
        status: 403,
        upstreamStatus: null,
        errorCode: 'org_not_permitted',
        replayOf: 3,
        unchecked: true,
        firstByteMs: null,
      }),
      'http://127.0.0.1:8787',
    );
    expect(har.request.url).toBe(`http://127.0.0.1:8787/api/vms/requisitionimport${orgs}`);
    expect(har.request.headers).toEqual([
      { name: 'host', value: '127.0.0.1:8787' },
      { name: 'content-length', value: '25' },
      { name: 'content-type', value: 'application/json' },
      { name: 'idempotency-key', value: 'key-7' },
      { name: 'x-portal-replay-of', value: '3' },
      { name: 'x-portal-unchecked', value: '1' },
    ]);
  });
});
