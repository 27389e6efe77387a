import {
  listTotalFromVms,
  operatorToVms,
  readPointer,
  vmsCallPath,
  withPage,
  type UnreadableAnswer,
  type VmsProfile,
} from '@/domain/vms-profile';
import type { ProbeAnswer, ProbeClient } from './probe-client';
import {
  fail,
  isRecord,
  ok,
  orgQuery,
  parseJson,
  pass,
  reqIdFilterPath,
  said,
  undecided,
  type Outcome,
} from './probe-outcome';
import type { JsonRecord } from './record-checks';
import type { DoctorTarget } from './target';

/**
 * The requisition list's paging and filter, proved against the VMS rather than taken from the
 * profile: a profile that says "no paging" on a VMS that pages, or filter names the VMS ignores,
 * would make the portal show fewer records, or the wrong ones, as if they were all. Each probe
 * passes only when the VMS's answers show the profile is right, names what it asked and saw, and
 * is undecided when the VMS holds too few records to tell.
 */

interface ListContext {
  target: DoctorTarget;
  client: ProbeClient;
  /** The records the list probe read (its first page), when it read any. */
  records?: JsonRecord[];
}

/** One list call: the records it answered (null when not a list), for evidence and comparison. */
interface ListRead {
  path: string;
  answer: ProbeAnswer;
  records: JsonRecord[] | null;
  ids: string[];
  /** The VMS's count of all the records (list.total): null when the profile names none. */
  total: number | null | UnreadableAnswer;
}

async function readList(context: ListContext, path: string): Promise<ListRead> {
  const { profile } = context.target;
  const answer = await context.client.call('GET', path);
  const found = ok(answer) ? readPointer(parseJson(answer.text), profile.list.records) : undefined;
  const records = Array.isArray(found) ? found.filter(isRecord) : null;
  const ids = (records ?? []).map((record) => String(record[profile.list.fields.reqId] ?? '?'));
  const total = ok(answer) ? listTotalFromVms(profile, answer.text) : null;
  return { path, answer, records, ids, total };
}

/** The list's path for the connection's first client org, with more of the portal's parameters. */
function listPath(target: DoctorTarget, extra: Record<string, string> = {}): string {
  const orgId = target.clientOrgIds[0] ?? 0;
  return vmsCallPath(target.profile, 'requisitions', orgQuery(target, orgId, extra));
}

function idList(ids: readonly string[]): string {
  if (ids.length === 0) return 'none';
  return ids.length > 6 ? `${ids.slice(0, 6).join(', ')}, …` : ids.join(', ');
}

/** One evidence line: the call as sent (its query, without the base) and what came back. */
function evidenceOf(read: ListRead): string {
  const what =
    read.records === null
      ? 'no list of records'
      : `${read.records.length} record${read.records.length === 1 ? '' : 's'} (Req IDs ${idList(read.ids)})`;
  const total =
    read.total === null
      ? ''
      : typeof read.total === 'number'
        ? `, total ${read.total}`
        : ', no total';
  return `GET ${read.path} → ${read.answer.status}, ${what}${total}`;
}

const sameIds = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id, at) => id === b[at]);

/** Parameters VMSs commonly page by, each set to change the answer of a VMS that reads it. */
const commonPagingParameters: ReadonlyArray<readonly [string, string]> = [
  ['page', '2'],
  ['pageNumber', '2'],
  ['offset', '1'],
  ['skip', '1'],
  ['start', '1'],
  ['limit', '1'],
  ['per_page', '1'],
  ['pageSize', '1'],
  ['page_size', '1'],
  ['size', '1'],
  ['$top', '1'],
  ['$skip', '1'],
];

function describePaging(profile: VmsProfile): string {
  const paging = profile.list.paging;
  switch (paging.style) {
    case 'none':
      return 'no paging';
    case 'page':
      return `pages by "${paging.page}" and "${paging.size}" from page ${paging.firstPage}`;
    case 'offset':
      return `pages by "${paging.offset}" and "${paging.limit}"`;
  }
}

/** Where the profile says the count of all records is, for messages. */
const totalAt = (profile: VmsProfile) => `"${profile.list.total ?? ''}" (list.total)`;

const totalFix = (profile: VmsProfile) =>
  `Set list.total in the profile to where the VMS's list answer gives the count of all the client's records (its API reference names it), or leave list.total out; now ${totalAt(profile)}.`;

/**
 * With `list.total`: the first answer must carry the count, and the list must end where it says
 * (`count` reads how many records the list holds from `total` on). Null when the profile names no
 * total; otherwise a failure, or the sentence a passing probe adds.
 */
async function checkTotal(
  profile: VmsProfile,
  first: ListRead,
  evidence: string[],
  count: (total: number) => Promise<{ agrees: boolean; seen: string }>,
): Promise<Outcome | string | null> {
  if (first.total === null) return null;
  if (typeof first.total !== 'number') {
    return fail(
      `The list's answer has no count of records at ${totalAt(profile)}.`,
      totalFix(profile),
      evidence,
    );
  }
  const { agrees, seen } = await count(first.total);
  if (!agrees) {
    return fail(
      `The VMS counts ${first.total} records at ${totalAt(profile)}, but ${seen}: the portal would take a complete list for an incomplete one, or the other way round.`,
      totalFix(profile),
      evidence,
    );
  }
  return ` The list's count agrees (list.total ${first.total}: ${seen}).`;
}

/** The profile says the VMS does not page: proved only when paging parameters change nothing. */
async function probeNoPaging(context: ListContext): Promise<Outcome> {
  const { target } = context;
  const plain = await readList(context, listPath(target));
  if (plain.records === null) {
    return undecided(
      `The plain list did not answer with records (status ${plain.answer.status}, ${said(target.profile, plain.answer)}); see the requisition list check.`,
      null,
      [evidenceOf(plain)],
    );
  }
  if (plain.records.length === 0) {
    return undecided(
      'The VMS listed no requisitions, so whether it pages cannot be seen.',
      'Check again once the client org has requisitions (or send a test one with --send-test-requisition on a test VMS).',
      [evidenceOf(plain)],
    );
  }
  const evidence = [evidenceOf(plain)];
  for (const [name, value] of commonPagingParameters) {
    const read = await readList(context, listPath(target, { [name]: value }));
    evidence.push(evidenceOf(read));
    if (read.records !== null && !sameIds(read.ids, plain.ids)) {
      return fail(
        `The profile says the VMS does not page (list.paging.style "none"), but it does: asked with ${name}=${value} it answered other records (${read.records.length} instead of ${plain.records.length}), so the portal would show only the first page.`,
        `Set list.paging in the profile to the VMS's paging: {"style": "page", "page": …, "size": …, "firstPage": …, "pageSize": …} or {"style": "offset", "offset": …, "limit": …, "pageSize": …}; the VMS reads "${name}". Its API reference names the rest.`,
        evidence,
      );
    }
  }
  const listed = plain.records.length;
  const total = await checkTotal(target.profile, plain, evidence, async (count) => ({
    agrees: count === listed,
    seen: `the whole list held ${listed}`,
  }));
  if (total !== null && typeof total !== 'string') return total;
  return pass(
    `The VMS ignores paging, as the profile says: each of ${commonPagingParameters.map(([name, value]) => `${name}=${value}`).join(', ')} answered the same ${plain.records.length} records as the plain list.${total ?? ''}`,
    evidence,
  );
}

/**
 * Paging as the profile says. With paging: two pages of 2 must differ and join up into one page
 * of 4. Without: the VMS must answer the same records whatever paging parameter it is sent.
 */
export async function probePaging(context: ListContext): Promise<Outcome> {
  const { target } = context;
  const { profile } = target;
  const paging = profile.list.paging;
  if (paging.style === 'none') return probeNoPaging(context);
  const sized = (pageSize: number): VmsProfile => ({
    ...profile,
    list: { ...profile.list, paging: { ...paging, pageSize } },
  });
  const size = Math.min(2, paging.pageSize);
  const first = await readList(context, withPage(sized(size), listPath(target), 0));
  const second = await readList(context, withPage(sized(size), listPath(target), 1));
  const both = await readList(context, withPage(sized(size * 2), listPath(target), 0));
  const evidence = [first, second, both].map(evidenceOf);
  const refused = [first, second, both].find((read) => read.records === null);
  if (refused) {
    return fail(
      `A page of the list did not answer with records (status ${refused.answer.status}, ${said(profile, refused.answer)}).`,
      "Check list.paging's parameter names in the profile against the VMS's API reference.",
      evidence,
    );
  }
  const [a, b, ab] = [first.ids, second.ids, both.ids];
  const sizeName = paging.style === 'page' ? paging.size : paging.limit;
  if (a.length > size) {
    return fail(
      `Asked for pages of ${size} ("${sizeName}"=${size}), the VMS answered ${a.length} records: it does not read "${sizeName}".`,
      `Set list.paging.${paging.style === 'page' ? 'size' : 'limit'} in the profile to the VMS's page-size parameter.`,
      evidence,
    );
  }
  if (a.length < size) {
    return undecided(
      `The VMS listed ${a.length} record${a.length === 1 ? '' : 's'}: too few to see whether its pages follow on (${describePaging(profile)}).`,
      'Check again once the client org has more requisitions.',
      evidence,
    );
  }
  if (b.length > 0 && sameIds(a, b) && paging.style === 'page') {
    // The same records for two page numbers: either the VMS ignores the parameter, or its
    // pages are counted from another first page (1-based read as 0-based answers page 1 twice).
    const third = await readList(context, withPage(sized(size), listPath(target), 2));
    evidence.push(evidenceOf(third));
    if (third.records !== null && third.ids.length > 0 && !sameIds(third.ids, a)) {
      return fail(
        `Pages ${paging.firstPage} and ${paging.firstPage + 1} answered the same records (${idList(a)}) and page ${paging.firstPage + 2} others (${idList(third.ids)}): the VMS counts its pages from ${paging.firstPage === 0 ? 1 : 0}, not ${paging.firstPage}.`,
        `Set list.paging.firstPage in the profile to ${paging.firstPage === 0 ? 1 : 0}.`,
        evidence,
      );
    }
  }
  if (b.length > 0 && sameIds(a, b)) {
    const name = paging.style === 'page' ? paging.page : paging.offset;
    return fail(
      `The second page answered the same records as the first (${idList(a)}): the VMS does not read "${name}" (list.paging.${paging.style === 'page' ? 'page' : 'offset'}).`,
      `Set list.paging.${paging.style === 'page' ? 'page' : 'offset'} in the profile to the VMS's parameter for it.`,
      evidence,
    );
  }
  if (!sameIds([...a, ...b], ab)) {
    return fail(
      `Two pages of ${size} (${idList(a)}; ${idList(b)}) do not join up into one page of ${size * 2} (${idList(ab)}): records would be skipped or read twice.`,
      paging.style === 'page'
        ? `Check list.paging.firstPage (${paging.firstPage}): whether the VMS counts pages from 0 or 1.`
        : "Check list.paging.offset and limit against the VMS's API reference.",
      evidence,
    );
  }
  const total = await checkTotal(profile, first, evidence, async (count) => {
    // The list must end where the count says: its last page of `size` holds the rest, and the
    // page after it nothing.
    const last = Math.max(0, Math.ceil(count / size) - 1);
    const expected = count - last * size;
    const lastPage = await readList(context, withPage(sized(size), listPath(target), last));
    const after = await readList(context, withPage(sized(size), listPath(target), last + 1));
    evidence.push(evidenceOf(lastPage), evidenceOf(after));
    const held = (read: ListRead) => read.records?.length ?? 0;
    return {
      agrees: held(lastPage) === expected && held(after) === 0,
      seen: `page ${last + 1} of ${size} held ${held(lastPage)} and the page after it ${held(after)}`,
    };
  });
  if (total !== null && typeof total !== 'string') return total;
  return pass(
    `Pages follow on (${describePaging(profile)}): two pages of ${size} held ${idList(a)} and ${idList(b)}, one page of ${size * 2} held the same records in the same order.${total ?? ''}`,
    evidence,
  );
}

/** The profile's operators as the VMS is sent them: `"=" as "eq", …`, or the symbols. */
function operatorWords(profile: VmsProfile): string {
  const words = profile.list.filter.operators;
  if (!words) return 'the symbols = > >= < <=';
  return Object.entries(words)
    .map(([symbol, word]) => `"${symbol}" as "${word}"`)
    .join(', ');
}

/** The filter's parameter names: a filter that matches nothing, and one on a listed Req ID. */
export async function probeFilter(context: ListContext): Promise<Outcome> {
  const { target } = context;
  const { profile } = target;
  const names = `"${profile.list.filter.field}", "${profile.list.filter.operator}" and "${profile.list.filter.value}"`;
  const filter = (value: string, operator: '=' | '>=' = '=') =>
    reqIdFilterPath(target, target.clientOrgIds[0] ?? 0, value, operator);
  const words = operatorWords(profile);
  const nothing = await readList(context, filter('0'));
  const evidence = [evidenceOf(nothing)];
  if (nothing.records === null) {
    return fail(
      `A filtered list (Req ID = 0, "=" sent as "${operatorToVms(profile, '=')}") did not answer with records (status ${nothing.answer.status}, ${said(profile, nothing.answer)}).`,
      `Check list.filter in the profile (${names}) and its operators (list.filter.operators, now ${words}) against the VMS's API reference: a VMS that writes its operators as words (eq, ge…) is given them in list.filter.operators.`,
      evidence,
    );
  }
  if (nothing.records.length > 0) {
    return fail(
      `A filter that matches nothing (Req ID = 0, sent as ${names}) answered ${nothing.records.length} records: the VMS ignores those parameter names, so the portal's refresh would read every record as changed, or miss changes.`,
      `Set list.filter.field, list.filter.operator and list.filter.value in the profile to the VMS's names for them (its API reference lists the list's parameters).`,
      evidence,
    );
  }
  if (nothing.total === 0 && (context.records?.length ?? 0) > 0) {
    return fail(
      `A filter that matches nothing answered a count of 0 at ${totalAt(profile)}, though the client has requisitions: the VMS counts what a filter matches there, not all the client's records, so the portal's refresh could not be checked against it.`,
      totalFix(profile),
      evidence,
    );
  }
  const known = context.records?.[0]?.[profile.list.fields.reqId];
  if (known === undefined || known === null || String(known) === '') {
    return undecided(
      'A filter that matches nothing answered no records, but no listed requisition is known to check that a filter finds one.',
      'Check again once the client org has a requisition.',
      evidence,
    );
  }
  const one = await readList(context, filter(String(known)));
  evidence.push(evidenceOf(one));
  if (one.records === null || one.ids.length !== 1 || one.ids[0] !== String(known)) {
    return fail(
      `A filter on Req ID ${String(known)} (a listed requisition) answered ${one.records === null ? `status ${one.answer.status}` : `${one.ids.length} records (${idList(one.ids)})`}, not that one record.`,
      `Check list.filter.operator and list.filter.value in the profile (${names}): the VMS should answer exactly the requisition asked for.`,
      evidence,
    );
  }
  // The refresh asks for what changed since a time with ">=": that word must be the VMS's too.
  const from = await readList(context, filter(String(known), '>='));
  evidence.push(evidenceOf(from));
  const below = from.ids.filter((id) => Number(id) < Number(known));
  if (from.records === null || !from.ids.includes(String(known)) || below.length > 0) {
    return fail(
      `A filter on Req ID >= ${String(known)} (">=" sent as "${operatorToVms(profile, '>=')}") answered ${from.records === null ? `status ${from.answer.status} (${said(profile, from.answer)})` : `${from.ids.length} records (${idList(from.ids)})`}, not that requisition and those after it: the VMS does not read the operator so.`,
      `Set list.filter.operators in the profile to the VMS's word for each operator (now ${words}), such as {"=": "eq", ">": "gt", ">=": "ge", "<": "lt", "<=": "le"}.`,
      evidence,
    );
  }
  return pass(
    `The VMS reads the filter's names (${names}) and operators (${words}): a filter that matches nothing answered no records, one on Req ID ${String(known)} answered exactly that requisition, and one on Req ID >= ${String(known)} that one and none before it.`,
    evidence,
  );
}
