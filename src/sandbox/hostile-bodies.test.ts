import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeSignature, unixSeconds } from '@/node/signature';
import { call, errorOf, startTestSandbox, type TestSandbox } from '@/test-support/sandbox-client';
import { requisitionInsert } from '@/test-support/test-data';
import { trickleRequest } from '@/test-support/trickle';
import { sandboxDemo } from './demo';

// Hostile JSON gets an honest 400 from the sandbox, never a 500.

let sandbox: TestSandbox;
beforeAll(async () => {
  sandbox = await startTestSandbox({ requestTimeoutMs: 1000 });
});
afterAll(() => sandbox.close());

describe('hostile bodies', () => {
  it('refuses a 100,000-deep body with 400 saying it is nested too deeply', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const result = await sandbox.call('/requisitionimport', { rawBody: deep });
    expect(result.status).toBe(400);
    expect(errorOf(result).code).toBe('malformed_request');
    expect(errorOf(result).message).toContain('nested more than 32 levels deep');
  });

  it('refuses a deep value inside an item the same way', async () => {
    const deep = `[{"titlerole":${'['.repeat(50_000)}${']'.repeat(50_000)}}]`;
    const result = await sandbox.call('/requisitionimport', { rawBody: deep });
    expect(result.status).toBe(400);
    expect(errorOf(result).message).toContain('nested more than 32 levels deep');
  });

  it('does not count brackets inside strings as nesting', async () => {
    const item = requisitionInsert({ shortdescription: '[[[['.repeat(50) });
    const rows = await sandbox.importRequisitions([item]);
    expect(rows[0]?.Status).toBe('Success');
  });

  it('judges an item with a "__proto__" key as an item with an unknown field', async () => {
    const item = requisitionInsert();
    const body = JSON.stringify([item]).replace('{', '{"__proto__":{"polluted":"yes"},');
    const accepted = await sandbox.call('/requisitionimport', { rawBody: body });
    expect(accepted.status).toBe(202);
    const { batchid } = accepted.body as { batchid: string };
    const rows = await sandbox.processedRequisitions(batchid);
    expect(rows[0]?.Status).toBe('Error');
    expect(rows[0]?.ErrorMessage).toContain('__proto__');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('answers its health without a key', async () => {
    const result = await call(sandbox.url, '/_sandbox/health', { apiKey: null, signature: null });
    expect(result).toEqual({ status: 200, body: { status: 'ok' } });
  });
});

describe('slow clients', () => {
  it('closes a connection whose body trickles in slower than the request timeout', async () => {
    // Signed, so authentication passes and the server waits for the body.
    const signature = computeSignature(sandboxDemo.apiKey, sandboxDemo.apiSecret, unixSeconds());
    const { elapsedMs, answer } = await trickleRequest(sandbox.url, [
      'POST /requisitionimport?Client_Org_Id=1001&Vendor_Org_Id=9001 HTTP/1.1',
      'Host: 127.0.0.1',
      'Content-Type: application/json',
      `x-api-key: ${sandboxDemo.apiKey}`,
      `x-signature: ${signature}`,
    ]);
    expect(elapsedMs).toBeLessThan(5000);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });
});
