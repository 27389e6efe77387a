import { payloadKinds, type PayloadKind } from './payload-kind';
import type { SuiteCase } from './suite-cases';
import { placeholder, referencesOf } from './suite-cases';

/**
 * A suite's run planned and judged: its cases' items resolved, grouped into the batches they are
 * sent in (a case waits for the cases it refers to), when to ask for results again, and whether
 * an outcome is the one a case expects. The suite file's shape and its editing are in
 * suite-cases.ts; the names the server and the benchmarks read a suite with are given here too.
 */
export {
  appendCases,
  suiteCaseSchema,
  suiteSchema,
  type Suite,
  type SuiteCase,
} from './suite-cases';

/**
 * A name made for one case of one run, of letters only (a VMS may refuse digits in a name): `Qa`
 * and the run's id and the case's number spelt in letters.
 */
function generatedName(runId: string, caseIndex: number): string {
  const spelt = `${runId}${caseIndex + 1}`
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
    .replace(/[0-9]/g, (digit) => String.fromCharCode(97 + Number(digit)));
  return `Qa${spelt}`.slice(0, 40);
}

/**
 * An item with its references filled in: `{{run.id}}` the run's id, `{{unique.email}}` an
 * address made for this case in this run, `{{unique.name}}` a name of letters and
 * `{{unique.id}}` an identifier, both made likewise (what a case saved from a real call has in
 * place of the person's), `{{<case>.createdId}}` what the VMS created for that case. An unknown
 * name is left as written, for the VMS (and the expectation) to judge.
 */
export function resolveItem(
  item: Readonly<Record<string, string>>,
  context: { runId: string; caseIndex: number; created: ReadonlyMap<string, string> },
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(item).map(([key, value]) => [
      key,
      value.replace(placeholder, (whole, name: string) => {
        if (name === 'run.id') return context.runId;
        if (name === 'unique.email')
          return `qa.${context.runId}.${context.caseIndex + 1}@example.com`;
        if (name === 'unique.name') return generatedName(context.runId, context.caseIndex);
        if (name === 'unique.id') return `qa-${context.runId}-${context.caseIndex + 1}`;
        const [ref, field] = name.split('.');
        if (field === 'createdId' && ref !== undefined) return context.created.get(ref) ?? whole;
        return whole;
      }),
    ]),
  );
}

/** One batch a run sends: cases of one kind, in the suite's order. */
export interface PlannedBatch {
  kind: PayloadKind;
  /** Indexes into the suite's cases. */
  cases: number[];
}

/**
 * The batches a run sends, in waves: a wave's batches go out together, and the next wave waits
 * for their results. A case goes in the earliest wave after every case it refers to
 * (`{{<case>.createdId}}` is known only once that case's results are in), and never before an
 * earlier case of its own kind, so each kind's cases reach the VMS in the suite's order. A wave
 * holds one batch per kind (more only past `maxBatch` items). Cases of the two kinds keep no
 * order between them beyond their references: a case that relies on what an earlier case of the
 * other kind did says so with a reference.
 *
 * Then, fewer batches: the cases of one kind in a wave move to the kind's next wave when no case
 * that refers to them would then come too early, so independent cases of a kind share a batch
 * with later ones instead of making one of their own.
 */
export function planRun(
  cases: readonly SuiteCase[],
  maxBatch = Number.POSITIVE_INFINITY,
): PlannedBatch[][] {
  const indexOf = new Map(cases.map((entry, index) => [entry.id, index]));
  const refs = cases.map((entry, index) =>
    [...referencesOf(entry.item)].flatMap((ref) => {
      const at = indexOf.get(ref);
      return at !== undefined && at < index ? [at] : [];
    }),
  );
  const dependents = cases.map(() => [] as number[]);
  refs.forEach((list, index) => list.forEach((ref) => dependents[ref]?.push(index)));

  const wave: number[] = [];
  const lastOfKind = new Map<PayloadKind, number>();
  cases.forEach((entry, index) => {
    const before = lastOfKind.get(entry.kind);
    let earliest = before === undefined ? 0 : (wave[before] ?? 0);
    for (const ref of refs[index] ?? []) earliest = Math.max(earliest, (wave[ref] ?? 0) + 1);
    wave[index] = earliest;
    lastOfKind.set(entry.kind, index);
  });

  // Merge each kind's wave groups into its next one while every dependent stays after them.
  for (let changed = true; changed;) {
    changed = false;
    for (const kind of payloadKinds) {
      const waves = [
        ...new Set(
          cases.flatMap((entry, index) => (entry.kind === kind ? [wave[index] ?? 0] : [])),
        ),
      ].sort((a, b) => a - b);
      for (let at = waves.length - 2; at >= 0; at -= 1) {
        const from = waves[at] ?? 0;
        const to = waves[at + 1] ?? 0;
        const group = cases.flatMap((entry, index) =>
          entry.kind === kind && wave[index] === from ? [index] : [],
        );
        const movable = group.every((index) =>
          (dependents[index] ?? []).every((dependent) => (wave[dependent] ?? 0) > to),
        );
        if (!movable) continue;
        for (const index of group) wave[index] = to;
        waves.splice(at, 1);
        changed = true;
      }
    }
  }

  const used = [...new Set(wave)].sort((a, b) => a - b);
  return used.map((number) =>
    payloadKinds.flatMap((kind) => {
      const members = cases.flatMap((entry, index) =>
        entry.kind === kind && wave[index] === number ? [index] : [],
      );
      const batches: PlannedBatch[] = [];
      for (let start = 0; start < members.length; start += maxBatch) {
        batches.push({ kind, cases: members.slice(start, start + maxBatch) });
      }
      return batches;
    }),
  );
}

/** What a run knows of a batch's results when it decides when to read them again. */
export interface ResultsSoFar {
  /** Reads made so far. */
  polls: number;
  /** Since the batch was accepted. */
  elapsedMs: number;
  /** Rows no longer Pending at the last read, of `total`. */
  settled: number;
  total: number;
  /** The read before the last: its pace is the VMS's now, without its start. */
  before?: { elapsedMs: number; settled: number };
}

/**
 * How long a run waits before reading a batch's results again. Once the VMS is settling rows,
 * when it will have settled the rest at its pace between the last two reads (a little more):
 * so a batch is seen finished soon after it is, in few reads, however long it takes. Before
 * that, 25 ms, a quarter longer after each read. Never longer than the batch has taken so far
 * (a pace read early may be off), never less than 25 ms or more than a second, so the run's
 * progress moves at least once a second.
 */
export function resultsPollDelay(so: ResultsSoFar): number {
  const backoff = Math.min(1000, Math.round(25 * 1.25 ** Math.max(0, so.polls)));
  const since = so.before ?? { elapsedMs: 0, settled: 0 };
  const moved = so.settled - since.settled;
  const took = so.elapsedMs - since.elapsedMs;
  if (moved <= 0 || took <= 0 || so.settled >= so.total) return backoff;
  const left = ((so.total - so.settled) * took) / moved;
  const bound = Math.min(1000, Math.max(backoff, so.elapsedMs));
  return Math.max(25, Math.min(bound, Math.round(left * 1.05 + 5)));
}

export interface CaseOutcome {
  status: string;
  message: string;
  createdId: string;
}

/** Why a case's outcome is not what it expected, or null when it is. */
export function caseFailure(expected: SuiteCase['expect'], actual: CaseOutcome): string | null {
  if (actual.status !== expected.status) {
    return `expected ${expected.status}, got ${actual.status}${actual.message ? `: ${actual.message}` : ''}`;
  }
  if (expected.message !== undefined && !new RegExp(expected.message).test(actual.message)) {
    return `the message "${actual.message}" does not match /${expected.message}/`;
  }
  if (
    expected.field !== undefined &&
    !actual.message.toLowerCase().includes(expected.field.toLowerCase())
  ) {
    return `the message "${actual.message}" does not name ${expected.field}`;
  }
  return null;
}
