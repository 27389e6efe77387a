import type { VmsProfile } from '@/domain/vms-profile';
import { readPointer } from '@/domain/vms-profile';
import { probeFilter, probePaging } from '@/server/doctor/list-probes';
import { isRecord, ok, parseJson, type Outcome } from '@/server/doctor/probe-outcome';
import type { JsonRecord } from '@/server/doctor/record-checks';
import { listCall } from './access';
import { proved, undecided, type Evidence } from './evidence';
import type { DraftSession } from './session';

/**
 * How the list pages and filters, found by the doctor's own probes (list-probes.ts) run on each
 * way VMSs are known to do it: the first the probe passes is proved by the same calls the doctor
 * will make. A VMS with too few records to tell leaves the key out.
 */

type Paging = VmsProfile['list']['paging'];
type Filter = VmsProfile['list']['filter'];

/** A page size the probes do not depend on: the real one is measured once the style is known. */
const probeSize = 50;

const pagingShapes: Paging[] = [
  ...([1, 0] as const).flatMap((firstPage) =>
    (
      [
        ['page', 'per_page'],
        ['page', 'pageSize'],
        ['page', 'page_size'],
        ['page', 'size'],
        ['page', 'limit'],
        ['pageNumber', 'pageSize'],
      ] as const
    ).map(([page, size]): Paging => ({
      style: 'page',
      page,
      size,
      firstPage,
      pageSize: probeSize,
    })),
  ),
  ...(
    [
      ['offset', 'limit'],
      ['skip', 'take'],
      ['skip', 'limit'],
      ['start', 'limit'],
      ['$skip', '$top'],
    ] as const
  ).map(([offset, limit]): Paging => ({ style: 'offset', offset, limit, pageSize: probeSize })),
];

const filterShapes: Filter[] = [
  { field: 'filterfield', operator: 'filteroperator', value: 'filtervalue' },
  { field: 'field', operator: 'op', value: 'value' },
  { field: 'field', operator: 'operator', value: 'value' },
  { field: 'filter_field', operator: 'filter_operator', value: 'filter_value' },
  { field: 'filterField', operator: 'filterOperator', value: 'filterValue' },
];

const withPaging = (profile: VmsProfile, paging: Paging): VmsProfile => ({
  ...profile,
  list: { ...profile.list, paging },
});

/** A probe's finding as part of an evidence line: without its closing full stop. */
function line(outcome: Outcome): string {
  return outcome.finding.replace(/\.$/, '');
}

/** How many records one page of `size` holds, and whether another page follows. */
async function pageOf(session: DraftSession, paging: Paging, size: number, index: number) {
  const sized = { ...paging, pageSize: size } as Paging;
  const params =
    sized.style === 'page'
      ? { [sized.page]: String(sized.firstPage + index), [sized.size]: String(size) }
      : sized.style === 'offset'
        ? { [sized.offset]: String(index * size), [sized.limit]: String(size) }
        : {};
  const answer = await session.get(listCall(session, params));
  const found = ok(answer)
    ? readPointer(parseJson(answer.text), session.profile.list.records)
    : undefined;
  return Array.isArray(found) ? found.filter(isRecord).length : null;
}

/**
 * The page size to ask for: the most the VMS was seen to answer in one page. Asked for pages of
 * 1000, a VMS that answers fewer and has a next page shows its limit; one that answers them all
 * shows only that it takes that many, which is then the size (never more than proved, or the
 * portal would read a short page as the last).
 */
async function measurePageSize(session: DraftSession, paging: Paging): Promise<[number, string]> {
  const asked = 1000;
  const first = await pageOf(session, paging, asked, 0);
  if (first === null || first === 0)
    return [probeSize, `the page size was not measured: ${probeSize} is a guess`];
  const next = await pageOf(session, paging, asked, 1);
  if (first < asked && next !== null && next > 0) {
    return [
      first,
      `asked for ${asked} a page, the VMS answered ${first} with more on the next page: it pages by ${first} at most`,
    ];
  }
  return [
    Math.min(first, asked),
    `asked for ${asked} a page, the VMS answered all ${first} records in one: pages of ${Math.min(first, asked)} are proved to be answered whole`,
  ];
}

export async function findPaging(
  session: DraftSession,
  records: JsonRecord[],
  evidence: Evidence,
): Promise<Paging | undefined> {
  const context = { target: session.target, client: session.client, records };
  const base = session.profile;
  session.learn((profile) => withPaging(profile, { style: 'none' }));
  const none = await probePaging(context);
  if (none.verdict === 'passed') {
    evidence['list.paging'] = proved(line(none));
    return { style: 'none' };
  }
  if (none.verdict === 'undecided') {
    session.learn(() => base);
    evidence['list.paging'] = undecided(line(none));
    return undefined;
  }
  const tried: string[] = [];
  for (const shape of pagingShapes) {
    session.learn((profile) => withPaging(profile, shape));
    const outcome = await probePaging(context);
    if (outcome.verdict === 'passed') {
      const [pageSize, how] = await measurePageSize(session, shape);
      const paging = { ...shape, pageSize } as Paging;
      session.learn((profile) => withPaging(profile, paging));
      evidence['list.paging'] = proved(`${line(outcome)}; ${how}`);
      return paging;
    }
    tried.push(JSON.stringify(shape));
  }
  session.learn(() => base);
  evidence['list.paging'] = undecided(
    `the VMS pages (${line(none)}), but by none of the known shapes: ${tried.join(', ')}`,
  );
  return undefined;
}

export async function findFilter(
  session: DraftSession,
  records: JsonRecord[],
  evidence: Evidence,
): Promise<Filter | undefined> {
  const context = { target: session.target, client: session.client, records };
  const base = session.profile;
  const seen: string[] = [];
  for (const filter of filterShapes) {
    session.learn((profile) => ({ ...profile, list: { ...profile.list, filter } }));
    const outcome = await probeFilter(context);
    if (outcome.verdict === 'passed') {
      evidence['list.filter'] = proved(line(outcome));
      return filter;
    }
    seen.push(line(outcome));
    if (outcome.verdict === 'undecided') break;
  }
  session.learn(() => base);
  evidence['list.filter'] = undecided(`no known filter shape was proved: ${seen.join(' / ')}`);
  return undefined;
}
