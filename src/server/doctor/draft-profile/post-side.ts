import { randomBytes } from 'node:crypto';
import { blankCandidateWire } from '@/domain/candidate-wire';
import { readPointer, vmsCallPath } from '@/domain/vms-profile';
import type { ProbeAnswer } from '@/server/doctor/probe-client';
import { arrayPointer } from '@/server/doctor/probe-context';
import { isRecord, ok, oneLine, orgQuery, parseJson } from '@/server/doctor/probe-outcome';
import { testRequisitionBatch } from '@/server/doctor/send-test-probe';
import { proved, undecided, type Evidence } from './evidence';
import type { DraftSession } from './session';
import { importPathShapes } from './shapes';

/**
 * What only a POST shows, found by sending when asked (`--send-test-requisition`): one batch of
 * the doctor's test requisition and one row the VMS must refuse (no title; it creates nothing),
 * then one batch of a test candidate to the requisition just created and one refused the same
 * way (no name). The import path is the first shape the VMS accepts the batch at; the batch id
 * is the value in its answer that the results path (already proved by GETs) answers rows for;
 * the rows, read until both have settled, show every results key: the reference echoed, the row
 * numbers 1 and 2 (or none), the message only the refused row has, the created id only the
 * other has, and the status words (a word seen before either settled is the pending one).
 */

type Kind = 'requisition' | 'candidate';

const operations = {
  requisition: { send: 'requisitionimport', results: 'requisitionresults', done: 'Success' },
  candidate: { send: 'candidates', results: 'candidateresults', done: 'New' },
} as const;

export interface RowShape {
  rows: string;
  rowNumber: string | null;
  status: string;
  message: string;
  createdId: string;
  reference: string;
  statuses: Record<string, string>;
}

export interface PostSide {
  paths: Partial<Record<'requisitionimport' | 'candidates', string>>;
  accepted?: { statuses: number[]; batchId: string };
  results: Partial<Record<Kind, RowShape>>;
}

export interface PostSideOptions {
  now: () => number;
  /** How long to wait for the rows to settle, and how often to look. */
  waitMs?: number;
  pollMs?: number;
}

type Row = Record<string, unknown>;
const text = (value: unknown) =>
  typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const escapeToken = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** The strings and numbers of a JSON body with their pointers, the body's own order. */
function leaves(body: unknown, at = '', depth = 0): Array<[string, string]> {
  if (typeof body === 'string' || typeof body === 'number') return [[at, String(body)]];
  if (depth > 4) return [];
  if (Array.isArray(body))
    return body.slice(0, 5).flatMap((item, index) => leaves(item, `${at}/${index}`, depth + 1));
  if (!isRecord(body)) return [];
  return Object.entries(body).flatMap(([key, value]) =>
    leaves(value, `${at}/${escapeToken(key)}`, depth + 1),
  );
}

/** The rows of a results answer: the array nearest its top, when it has any. */
function rowsOf(answer: ProbeAnswer): { pointer: string; rows: Row[] } | null {
  if (!ok(answer)) return null;
  const body = parseJson(answer.text);
  const pointer = arrayPointer(body);
  const rows = pointer === null ? undefined : readPointer(body, pointer);
  if (pointer === null || !Array.isArray(rows) || rows.length === 0) return null;
  return { pointer, rows: rows.filter(isRecord) };
}

/** The results keys, once the sent row and the refused row have settled; null before. */
function readShape(
  rows: Row[],
  references: [string, string],
): Omit<RowShape, 'rows' | 'statuses'> | null {
  const sent = rows.find((row) => Object.values(row).some((value) => value === references[0]));
  const refused = rows.find((row) => Object.values(row).some((value) => value === references[1]));
  if (sent === undefined || refused === undefined) return null;
  const keys = Object.keys(sent);
  const reference = keys.find((key) => sent[key] === references[0]);
  if (reference === undefined || refused[reference] !== references[1]) return null;
  const rowNumber =
    keys.find((key) => text(sent[key]) === '1' && text(refused[key]) === '2') ?? null;
  const taken = new Set([reference, rowNumber]);
  const message = keys.find((key) => !taken.has(key) && text(refused[key]).includes(' '));
  const createdId = keys.find(
    (key) => !taken.has(key) && text(sent[key]) !== '' && text(refused[key]) === '',
  );
  const status = keys.find(
    (key) =>
      !taken.has(key) &&
      key !== message &&
      key !== createdId &&
      /^\S+$/.test(text(sent[key])) &&
      /^\S+$/.test(text(refused[key])) &&
      text(sent[key]) !== text(refused[key]),
  );
  if (message === undefined || createdId === undefined || status === undefined) return null;
  return { rowNumber, reference, message, createdId, status };
}

/** The value in an accepted answer that the results path reads rows for: the batch id. */
async function batchIdIn(
  session: DraftSession,
  kind: Kind,
  answer: ProbeAnswer,
): Promise<{ pointer: string; batchId: string; call: string; rows: string; first: Row[] } | null> {
  const orgId = session.target.clientOrgIds[0] ?? 0;
  for (const [pointer, value] of leaves(parseJson(answer.text))) {
    if (!/^[\w.:-]{1,100}$/.test(value)) continue;
    const call = vmsCallPath(
      session.profile,
      operations[kind].results,
      orgQuery(session.target, orgId, { batchid: value }),
    );
    const found = rowsOf(await session.get(call));
    if (found !== null)
      return { pointer, batchId: value, call, rows: found.pointer, first: found.rows };
  }
  return null;
}

interface Sent {
  path: string;
  call: string;
  answer: ProbeAnswer;
  tried: string[];
}

/** The batch, at each shape of the import path until the VMS accepts it (2xx), once there. */
async function send(session: DraftSession, kind: Kind, items: unknown[]): Promise<Sent | string[]> {
  const orgId = session.target.clientOrgIds[0] ?? 0;
  const operation = operations[kind].send;
  const tried: string[] = [];
  for (const path of importPathShapes(kind, session.profile.paths.requisitions)) {
    session.learn((profile) => ({ ...profile, paths: { ...profile.paths, [operation]: path } }));
    const call = vmsCallPath(session.profile, operation, orgQuery(session.target, orgId));
    const answer = await session.post(call, items);
    tried.push(`POST ${call} → ${answer.status} ${oneLine(answer.text, 60)}`);
    if (ok(answer)) return { path, call, answer, tried };
  }
  return tried;
}

/** One kind's batch sent and read: what it proved, or why it did not. */
async function sendAndRead(
  session: DraftSession,
  kind: Kind,
  items: [Row, Row],
  references: [string, string],
  evidence: Evidence,
  found: PostSide,
  options: PostSideOptions,
): Promise<Row | null> {
  const operation = operations[kind].send;
  const what = kind === 'requisition' ? 'the test requisition' : 'the test candidate';
  const sent = await send(session, kind, items);
  if (Array.isArray(sent)) {
    evidence[`paths.${operation}`] = undecided(
      `the VMS accepted ${what} at none of the ${sent.length} shapes tried (${sent.join('; ')})`,
    );
    return null;
  }
  const others = `${sent.tried.length - 1} other shape${sent.tried.length === 2 ? '' : 's'} did not`;
  const batch = await batchIdIn(session, kind, sent.answer);
  if (batch === null) {
    // Accepted, so it may have created something: no other shape is tried.
    evidence[`paths.${operation}`] = undecided(
      `POST ${sent.call} was accepted (${sent.answer.status}) but no value in its answer is a batch whose results read: ${oneLine(sent.answer.text, 120)}`,
    );
    return null;
  }
  found.paths[operation] = sent.path;
  evidence[`paths.${operation}`] = proved(
    `POST ${sent.call} (${what} ${references[0]} and a row without ${kind === 'requisition' ? 'a title' : 'a name'} ${references[1]}) was accepted with ${sent.answer.status}; ${others}`,
  );
  const accepted = { statuses: [sent.answer.status], batchId: batch.pointer };
  if (found.accepted === undefined) {
    found.accepted = accepted;
    evidence.accepted = proved(
      `POST ${sent.call} answered ${sent.answer.status} with the batch id at "${batch.pointer}" ("${batch.batchId}"): GET ${batch.call} answered its rows`,
    );
  } else if (JSON.stringify(found.accepted) !== JSON.stringify(accepted)) {
    evidence.accepted += `; but ${what}'s batch was answered ${sent.answer.status} with its id at "${batch.pointer}": the portal reads one shape for both`;
  }

  // Every word the status field held, in the order seen, and the rows when they settled.
  const seen: Row[][] = [batch.first];
  const deadline = options.now() + (options.waitMs ?? 30_000);
  let shape = readShape(batch.first, references);
  let rows = batch.first;
  let pointer = batch.rows;
  while (shape === null && options.now() < deadline) {
    await wait(options.pollMs ?? 500);
    const again = rowsOf(await session.get(batch.call));
    if (again === null) continue;
    seen.push(again.rows);
    rows = again.rows;
    pointer = again.pointer;
    shape = readShape(again.rows, references);
  }
  if (shape === null) {
    evidence[`results.${kind}`] = undecided(
      `the rows of batch ${batch.batchId} did not settle into a created row and a refused one within the wait; last seen: ${oneLine(JSON.stringify(rows), 200)}`,
    );
    return null;
  }
  const settled = shape;
  const byReference = (all: Row[], at: 0 | 1) =>
    all.find((row) => row[settled.reference] === references[at]);
  const done = text(byReference(rows, 0)?.[settled.status]);
  const failed = text(byReference(rows, 1)?.[settled.status]);
  const statuses: Record<string, string> = { [done]: operations[kind].done, [failed]: 'Error' };
  const pending = seen
    .flatMap((all) => all.map((row) => text(row[settled.status])))
    .filter((word) => word !== '' && word !== done && word !== failed);
  if (pending[0] !== undefined) statuses[pending[0]] = 'Pending';
  found.results[kind] = { rows: pointer, ...settled, statuses };
  const words = Object.entries(statuses)
    .map(([word, own]) => `"${word}" ${own}`)
    .join(', ');
  evidence[`results.${kind}`] = proved(
    `GET ${batch.call} read ${seen.length} time${seen.length === 1 ? '' : 's'}: rows at "${pointer}", ${settled.rowNumber === null ? 'no row number (rows in the order sent)' : `row numbers in "${settled.rowNumber}"`}, the status in "${settled.status}" (${words}), the refused row's message in "${settled.message}", the created id in "${settled.createdId}", the reference in "${settled.reference}"${pending[0] === undefined ? '; no pending word was seen (the rows had settled at the first look)' : ''}${kind === 'candidate' ? "; an incomplete candidate's word was not seen" : ''}`,
  );
  return byReference(rows, 0) ?? null;
}

/**
 * Sends the test batches and fills `found` and `evidence`. The session's profile must already
 * have the results paths, and the dates it writes (dates.outbound), that the GETs proved.
 */
export async function findPostSide(
  session: DraftSession,
  evidence: Evidence,
  options: PostSideOptions,
): Promise<PostSide> {
  const found: PostSide = { paths: {}, results: {} };
  const orgId = session.target.clientOrgIds[0] ?? 0;
  const batch = testRequisitionBatch(session.profile, orgId, options.now());
  const created = await sendAndRead(
    session,
    'requisition',
    batch.rows,
    batch.references,
    evidence,
    found,
    options,
  );
  const reqId = created === null ? '' : text(created[found.results.requisition?.createdId ?? '']);
  if (reqId === '') {
    evidence['paths.candidates'] = undecided(
      'no test requisition was created to submit a test candidate to',
    );
    return found;
  }
  const tag = randomBytes(4).toString('hex').toUpperCase();
  const candidate = {
    ...blankCandidateWire(),
    requirementid: reqId,
    vendorcandidateid: `DOCTOR-${tag}`,
    firstname: 'CONNECTION CHECK',
    lastname: 'test candidate, do not engage',
    candemail: `doctor.${tag.toLowerCase()}@example.invalid`,
    engagementtype: '1',
  };
  const refusedCandidate = {
    ...candidate,
    vendorcandidateid: `DOCTOR-${tag}-REFUSED`,
    firstname: '',
  };
  await sendAndRead(
    session,
    'candidate',
    [candidate, refusedCandidate],
    [candidate.vendorcandidateid, refusedCandidate.vendorcandidateid],
    evidence,
    found,
    options,
  );
  return found;
}
