import type { SignatureExample } from '@/domain/profile-draft';
import { describeRecipe, readPointer, type SignatureRecipe } from '@/domain/vms-profile';
import { arrayPointer } from '@/server/doctor/probe-context';
import { isRecord, parseJson } from '@/server/doctor/probe-outcome';
import { SendTestRefused } from '@/server/doctor/run-doctor';
import type { DoctorTarget } from '@/server/doctor/target';
import { scrubText, SecretNeedles } from '@/server/redaction/credential-scrub';
import { findAccess, knownRecipes, listCall } from './access';
import { proved, records as recordCount, undecided, type Evidence } from './evidence';
import { recipesFromExample } from './example';
import { findFilter, findPaging } from './list-behaviour';
import { findPostSide, type PostSide } from './post-side';
import { readRecords } from './records';
import { findResults, messagePointer } from './results';
import { DraftSession } from './session';

/**
 * Drafting a profile from the VMS itself: from a connection's base URL and credentials (and, when
 * the signing is not one of the known recipes, one signed example), every key that safe GETs can
 * prove, each with its evidence, and the rest left out with the reason. Nothing is POSTed unless
 * asked (`sendTest`), and then never to a production connection unless forced: the test batches
 * of post-side.ts show the POST side.
 */

export interface DraftOptions {
  example?: SignatureExample;
  now?: () => number;
  /** Send one test requisition (and a test candidate to it) to find the POST-side keys. */
  sendTest?: boolean;
  /** Allow the test send on a production connection. */
  force?: boolean;
  /** How long to wait for a test batch's rows to settle, and how often to look. */
  sendTestWaitMs?: number;
  sendTestPollMs?: number;
  /** What to tell the person on a production connection instead of sending. */
  refusedInstead?: string;
}

/** The profile file: the preset it starts from, the keys proved or guessed, and `$evidence`. */
export type DraftedProfile = Record<string, unknown> & { $evidence: Evidence };

export type DraftOutcome =
  | { drafted: true; profile: DraftedProfile }
  | {
      drafted: false;
      problem: string;
      tried: string[];
      /** The signature example itself is wrong (not the VMS): nothing was called. */
      badExample?: true;
    };

/** The keys only a POST, or a batch's rows, would show, when no test batch was sent. */
function neverProved(evidence: Evidence): void {
  const why =
    'a draft POSTs only when asked to send a test requisition, so what the VMS does with a batch is not seen';
  evidence['paths.requisitionimport'] = undecided(`${why}: set it from the VMS's API reference`);
  evidence['paths.candidates'] = undecided(`${why}: set it from the VMS's API reference`);
  evidence.accepted = undecided(`${why} (its answer's status and where the batch id is)`);
  for (const kind of ['requisition', 'candidate'] as const) {
    evidence[`results.${kind}`] = undecided(
      `${why}: the rows' fields and status words (rowNumber, status, message, createdId, reference, statuses) are left to the preset`,
    );
  }
}

const postSideKeys = [
  'paths.requisitionimport',
  'paths.candidates',
  'accepted',
  'results.requisition',
  'results.candidate',
];

/** What the test batches proved, laid over the draft (a row shape replaces the GETs' rows). */
function withPostSide(draft: Record<string, unknown>, found: PostSide): void {
  Object.assign(draft.paths as object, found.paths);
  if (found.accepted !== undefined) draft.accepted = found.accepted;
  const shapes = { ...(draft.results as Record<string, unknown> | undefined), ...found.results };
  if (Object.keys(shapes).length > 0) draft.results = shapes;
}

async function signing(
  session: DraftSession,
  example: SignatureExample | undefined,
): Promise<{ recipes: SignatureRecipe[]; how: string } | { problem: string; badExample: true }> {
  if (example === undefined) {
    return { recipes: knownRecipes, how: 'one of the known recipes' };
  }
  const found = recipesFromExample(example, session.target.apiKey, session.target.apiSecret);
  if ('problem' in found) return { badExample: true, problem: found.problem };
  if (found.recipes.length === 0) {
    return {
      badExample: true,
      problem:
        "no recipe reproduces the example's signature with this connection's key and secret: check that the example was signed with them, and that its timestamp and body are exactly as signed",
    };
  }
  return { recipes: found.recipes, how: `the recipe that reproduces ${found.how}` };
}

async function draftWith(session: DraftSession, options: DraftOptions): Promise<DraftOutcome> {
  const evidence: Evidence = {};
  const draft: Record<string, unknown> = { preset: 'sandbox' };
  const recipes = await signing(session, options.example);
  if ('problem' in recipes) {
    return { drafted: false, problem: recipes.problem, tried: [], badExample: true };
  }

  const access = await findAccess(session, recipes.recipes);
  if (access === null) {
    return {
      drafted: false,
      problem: `the VMS accepted no list call signed by ${recipes.how} (${recipes.recipes.length} recipe${recipes.recipes.length === 1 ? '' : 's'} × every list path shape)${options.example === undefined ? '; give a signed example with --example-signature' : ''}`,
      tried: session.calls,
    };
  }
  draft.signature = access.recipe;
  evidence.signature = proved(
    `${recipes.how}: ${describeRecipe(access.recipe)}; the VMS accepted GET ${access.call} signed so (${access.answer.status})${access.refused.length > 0 ? `; the VMS accepted no list call signed by ${access.refused.join(', or by ')}` : ''}`,
  );
  draft.paths = { requisitions: access.listPath };
  evidence['paths.requisitions'] = proved(
    `GET ${access.call} answered ${access.answer.status} with an array of records`,
  );

  const body = parseJson(access.answer.text);
  const pointer = arrayPointer(body);
  const list: Record<string, unknown> = {};
  const dates: Record<string, unknown> = {};
  let sample: Array<Record<string, unknown>> = [];
  if (pointer === null) {
    evidence['list.records'] = undecided(`GET ${access.call} answered no array of records`);
  } else {
    const found = readPointer(body, pointer);
    sample = (Array.isArray(found) ? found : []).filter(isRecord).slice(0, 50);
    list.records = pointer;
    session.learn((profile) => ({ ...profile, list: { ...profile.list, records: pointer } }));
    evidence['list.records'] = proved(
      `GET ${access.call} answered an array at "${pointer}" (${recordCount(Array.isArray(found) ? found.length : 0)})`,
    );
  }
  if (sample.length === 0) {
    const why = 'the VMS listed no requisitions to read it from';
    for (const key of ['list.fieldNames', 'list.fields', 'list.paging', 'list.filter'])
      evidence[key] = undecided(why);
    evidence.dates = undecided(why);
  } else {
    const seen = readRecords(session.profile, sample, evidence);
    if (seen.fieldNames !== undefined) list.fieldNames = seen.fieldNames;
    if (seen.fields !== undefined) {
      list.fields = seen.fields;
      const fields = seen.fields;
      session.learn((profile) => ({ ...profile, list: { ...profile.list, fields } }));
      const paging = await findPaging(session, sample, evidence);
      if (paging !== undefined) list.paging = paging;
      const filter = await findFilter(session, sample, evidence);
      if (filter !== undefined) list.filter = filter;
    } else {
      evidence['list.paging'] = undecided('the records’ id field was not found');
      evidence['list.filter'] = undecided('the records’ id field was not found');
    }
    if (seen.dateTimes !== undefined) dates.dateTimes = seen.dateTimes;
    if (seen.records !== undefined) dates.records = seen.records;
    if (seen.outbound !== undefined) dates.outbound = seen.outbound;
  }

  const results = await findResults(session, access.listPath, evidence);
  if (results.missing.length > 0) {
    return {
      drafted: false,
      problem: `no results path was found for ${results.missing.map(({ kind }) => `${kind} batches`).join(' or ')}: every shape tried answered otherwise than "no such batch" for a batch that cannot exist; set paths.${results.missing.map(({ kind }) => `${kind}results`).join(' and paths.')} from the VMS's API reference`,
      tried: results.missing.flatMap(({ tried }) => tried),
    };
  }
  Object.assign(draft.paths as object, results.paths);
  const shapes: Record<string, unknown> = {};
  for (const [kind, rows] of Object.entries(results.rows)) shapes[kind] = { rows };
  if (Object.keys(shapes).length > 0) draft.results = shapes;
  let errorMessage = results.errorMessage;
  if (errorMessage === undefined) errorMessage = await refusedMessage(session, evidence);
  if (errorMessage !== undefined) draft.errors = { message: errorMessage };
  if (Object.keys(list).length > 0) draft.list = list;
  if (Object.keys(dates).length > 0) draft.dates = dates;
  if (options.sendTest === true) {
    session.learn((profile) => ({
      ...profile,
      paths: { ...profile.paths, ...results.paths },
      dates: { ...profile.dates, ...(dates as Partial<typeof profile.dates>) },
    }));
    const found = await findPostSide(session, evidence, {
      now: options.now ?? Date.now,
      ...(options.sendTestWaitMs !== undefined && { waitMs: options.sendTestWaitMs }),
      ...(options.sendTestPollMs !== undefined && { pollMs: options.sendTestPollMs }),
    });
    withPostSide(draft, found);
    for (const key of postSideKeys) {
      evidence[key] ??= undecided(
        'the test batches did not reach it (see paths.requisitionimport and paths.candidates)',
      );
    }
  } else {
    neverProved(evidence);
  }
  return { drafted: true, profile: { ...draft, $evidence: evidence } };
}

/** Where a refusal's message is, from a list call signed with a wrong secret (refused, harmless). */
async function refusedMessage(
  session: DraftSession,
  evidence: Evidence,
): Promise<string | undefined> {
  // The session signs with its target's secret: a wrong one, for this call only, is a refusal
  // that reads nothing and changes nothing.
  const secret = session.target.apiSecret;
  session.target.apiSecret = `${secret}-not-the-secret`;
  try {
    const call = listCall(session);
    const answer = await session.get(call);
    const pointer = answer.status >= 400 ? messagePointer(parseJson(answer.text)) : null;
    if (pointer === null) {
      evidence['errors.message'] = undecided(
        `no refusal showed a message: GET ${call} signed with a wrong secret answered ${answer.status}`,
      );
      return undefined;
    }
    evidence['errors.message'] = proved(
      `GET ${call} signed with a wrong secret was refused (${answer.status}) with its message at "${pointer}"`,
    );
    return pointer;
  } finally {
    session.target.apiSecret = secret;
  }
}

/** Why the test send is refused (a production connection, not forced), or null when it is not. */
export function testSendRefusal(
  connection: Pick<DoctorTarget, 'name' | 'production'>,
  options: Pick<DraftOptions, 'sendTest' | 'force' | 'refusedInstead'>,
): SendTestRefused | null {
  if (options.sendTest !== true || !connection.production || options.force === true) return null;
  return new SendTestRefused(
    connection.name,
    options.refusedInstead ??
      'Draft it without the test send, or force it if you mean it (--force).',
  );
}

/**
 * The draft for one connection. Whatever the VMS echoes, the key, the secret and every signature
 * sent are scrubbed out of the draft and of the calls listed.
 */
export async function draftProfile(
  connection: DoctorTarget,
  options: DraftOptions = {},
): Promise<DraftOutcome> {
  const refused = testSendRefusal(connection, options);
  if (refused !== null) throw refused;
  const session = new DraftSession(connection, options.now);
  try {
    const outcome = await draftWith(session, options);
    const needles = SecretNeedles.of(session.secrets());
    return JSON.parse(scrubText(JSON.stringify(outcome), needles)) as DraftOutcome;
  } finally {
    await session.close();
  }
}
