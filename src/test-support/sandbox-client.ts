import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { apiErrorBodySchema } from '@/domain/api-error';
import type { ApiErrorBody } from '@/domain/api-error';
import { computeSignature, unixSeconds } from '@/node/signature';
import { sandboxDemo } from '@/sandbox/demo';
import type { RunningSandbox, SandboxOptions } from '@/sandbox/index';
import { startSandbox } from '@/sandbox/index';

/**
 * Test helpers: a real sandbox on a free port with its own database file, and signed HTTP calls to
 * it, the way the portal's proxy makes them. No mocks: what the tests see is what a client sees.
 */

export function tempDbPath(): { dbPath: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-vms-'));
  return {
    dbPath: join(dir, 'sandbox.db'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT';
  /** Query parameters; Client_Org_Id 1001 and Vendor_Org_Id 9001 unless given (null = leave out). */
  query?: Record<string, string | number | null>;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is (for malformed bodies). */
  rawBody?: string;
  contentType?: string | null;
  /** The demo key unless given; null = no x-api-key header. */
  apiKey?: string | null;
  secret?: string;
  /** Unix seconds signed; now unless given. */
  timestamp?: number;
  /** Overrides the computed signature; null = no x-signature header. */
  signature?: string | null;
}

export interface CallResult {
  status: number;
  body: unknown;
}

export async function call(
  baseUrl: string,
  path: string,
  options: CallOptions = {},
): Promise<CallResult> {
  const url = new URL(path, baseUrl);
  const query = { Client_Org_Id: 1001, Vendor_Org_Id: sandboxDemo.vendorOrgId, ...options.query };
  for (const [name, value] of Object.entries(query)) {
    if (value !== null) url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  const apiKey = options.apiKey === undefined ? sandboxDemo.apiKey : options.apiKey;
  if (apiKey !== null) headers['x-api-key'] = apiKey;
  const signature =
    options.signature === undefined
      ? computeSignature(
          apiKey ?? '',
          options.secret ?? sandboxDemo.apiSecret,
          options.timestamp ?? unixSeconds(),
        )
      : options.signature;
  if (signature !== null) headers['x-signature'] = signature;
  const body =
    options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
  if (body !== undefined && contentType !== null) headers['content-type'] = contentType;
  const response = await fetch(url, {
    method: options.method ?? (body === undefined ? 'GET' : 'POST'),
    headers,
    ...(body !== undefined && { body }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

export function errorOf(result: CallResult): ApiErrorBody['error'] {
  return apiErrorBodySchema.parse(result.body).error;
}

const acceptedSchema = z.object({ batchid: z.string(), received: z.number() });

export const requisitionResultSchema = z.object({
  Batch_Id: z.string(),
  Row: z.number(),
  Status: z.enum(['Pending', 'Success', 'Error']),
  ErrorMessage: z.string(),
  Req_Id: z.string(),
  ClientInternalReq: z.string(),
});
export type RequisitionResultRow = z.infer<typeof requisitionResultSchema>;

export const candidateResultSchema = z.object({
  Batch_Id: z.string(),
  Row: z.number(),
  Status: z.enum(['Pending', 'New', 'Incomplete', 'Error']),
  Cand_Status: z.enum(['Pending', 'New', 'Incomplete', 'Error']),
  CandErrorMessage: z.string(),
  Cand_Id: z.string(),
  Vendor_Candidate_Id: z.string(),
});
export type CandidateResultRow = z.infer<typeof candidateResultSchema>;

const requisitionListSchema = z.array(z.record(z.string(), z.string()));

export interface TestSandbox extends RunningSandbox {
  dbPath: string;
  call(path: string, options?: CallOptions): Promise<CallResult>;
  postRequisitions(items: unknown[], options?: CallOptions): Promise<string>;
  postCandidates(items: unknown[], options?: CallOptions): Promise<string>;
  requisitionResults(batchId: string, options?: CallOptions): Promise<RequisitionResultRow[]>;
  candidateResults(batchId: string, options?: CallOptions): Promise<CandidateResultRow[]>;
  /** Polls until no row is Pending. */
  processedRequisitions(batchId: string, options?: CallOptions): Promise<RequisitionResultRow[]>;
  processedCandidates(batchId: string, options?: CallOptions): Promise<CandidateResultRow[]>;
  /** Posts requisitions and waits for their results. */
  importRequisitions(items: unknown[], options?: CallOptions): Promise<RequisitionResultRow[]>;
  submitCandidates(items: unknown[], options?: CallOptions): Promise<CandidateResultRow[]>;
  listRequisitions(
    query?: Record<string, string | number | null>,
    options?: CallOptions,
  ): Promise<Array<Record<string, string>>>;
  /** One requisition as GET /requisitions returns it. */
  requisition(reqId: string | number, clientOrgId?: number): Promise<Record<string, string>>;
}

async function until<T>(
  read: () => Promise<T>,
  done: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for results.`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export async function startTestSandbox(
  options: Partial<SandboxOptions> = {},
): Promise<TestSandbox> {
  const temp = options.dbPath ? undefined : tempDbPath();
  const dbPath = options.dbPath ?? temp?.dbPath ?? '';
  const sandbox = await startSandbox({ port: 0, processingDelayMs: 0, ...options, dbPath });
  const invoke = (path: string, callOptions?: CallOptions) => call(sandbox.url, path, callOptions);

  async function post(path: string, items: unknown[], callOptions?: CallOptions): Promise<string> {
    const result = await invoke(path, { ...callOptions, body: items });
    if (result.status !== 202) {
      throw new Error(`POST ${path} answered ${result.status}: ${JSON.stringify(result.body)}`);
    }
    return acceptedSchema.parse(result.body).batchid;
  }
  async function read<T>(
    path: string,
    schema: z.ZodType<T>,
    batchId: string,
    callOptions?: CallOptions,
  ): Promise<T[]> {
    const result = await invoke(path, {
      ...callOptions,
      query: { ...callOptions?.query, batchid: batchId },
    });
    if (result.status !== 200) {
      throw new Error(`GET ${path} answered ${result.status}: ${JSON.stringify(result.body)}`);
    }
    return z.array(schema).parse(result.body);
  }
  const notPending = (rows: ReadonlyArray<{ Status: string }>) =>
    rows.every((row) => row.Status !== 'Pending');

  const test: TestSandbox = {
    ...sandbox,
    dbPath,
    async close() {
      await sandbox.close();
      temp?.remove();
    },
    call: invoke,
    postRequisitions: (items, o) => post('/requisitionimport', items, o),
    postCandidates: (items, o) => post('/candidates', items, o),
    requisitionResults: (id, o) => read('/requisitionresults', requisitionResultSchema, id, o),
    candidateResults: (id, o) => read('/candidateresults', candidateResultSchema, id, o),
    processedRequisitions: (id, o) => until(() => test.requisitionResults(id, o), notPending),
    processedCandidates: (id, o) => until(() => test.candidateResults(id, o), notPending),
    async importRequisitions(items, o) {
      return test.processedRequisitions(await test.postRequisitions(items, o), o);
    },
    async submitCandidates(items, o) {
      return test.processedCandidates(await test.postCandidates(items, o), o);
    },
    async listRequisitions(query = {}, o) {
      const result = await invoke('/requisitions', { ...o, query: { ...o?.query, ...query } });
      if (result.status !== 200) {
        throw new Error(
          `GET /requisitions answered ${result.status}: ${JSON.stringify(result.body)}`,
        );
      }
      return requisitionListSchema.parse(result.body);
    },
    async requisition(reqId, clientOrgId = 1001) {
      const [record] = await test.listRequisitions({
        Client_Org_Id: clientOrgId,
        filterfield: 'Req_Id',
        filteroperator: '=',
        filtervalue: String(reqId),
      });
      if (!record)
        throw new Error(`Requisition ${reqId} is not listed for client org ${clientOrgId}.`);
      return record;
    },
  };
  return test;
}
