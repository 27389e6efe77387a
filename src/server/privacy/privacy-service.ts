import { setImmediate as nextTurn } from 'node:timers/promises';
import { addressValues, rewriteAddressValues } from '@/domain/personal-address';
import {
  eraseSubject,
  findSubject,
  type HeldRecord,
  type PersonalSubject,
  type StoreCounts,
} from '@/domain/personal-subject';
import { isoTime } from '@/server/http/iso-time';
import { textSources, type HeldRow, type PrivacyStore, type TextSource } from './privacy-store';

/**
 * Bodies or rows read and rewritten per transaction. A journal body is at most
 * JOURNAL_BODY_LIMIT_KB; fifty of them parse, erase, deflate and index in a few milliseconds, and
 * the event loop gets a turn between transactions, so no request waits behind an erasure for long
 * (bench/privacy.ts measures it against a 50 ms budget).
 */
const perStep = 50;
/**
 * Journal bodies per transaction: each is deleted from and added to the search index, which costs
 * more than a row; at 50 a step took up to 160 ms on a journal of 100,000 calls, at 10 under 30.
 */
const bodiesPerStep = 10;

export interface PrivacyServiceOptions {
  now?: () => number;
}

interface Found {
  counts: StoreCounts;
  records: HeldRecord[];
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let from = 0; from < items.length; from += size) out.push(items.slice(from, from + size));
  return out;
}

/** The searches that find the person's bodies in the journal's index: e-mail, and name. */
function searches(subject: PersonalSubject): string[][] {
  const out = [[subject.email]];
  if (subject.name) out.push([subject.name.first, subject.name.last]);
  return out;
}

/**
 * What a source's rows are read for: the e-mail, and the last name (each row is then confirmed),
 * each also as a call's address writes it (percent-encoded, a space as `+`).
 */
function needles(subject: PersonalSubject): string[] {
  const plain = [subject.email.trim().toLowerCase()];
  if (subject.name) plain.push(subject.name.last.trim().toLowerCase());
  return [
    ...new Set(
      plain.flatMap((text) => [
        text,
        encodeURIComponent(text).toLowerCase(),
        encodeURIComponent(text).replace(/%20/gu, '+').toLowerCase(),
      ]),
    ),
  ];
}

function add(counts: StoreCounts, store: string, n: number): void {
  if (n > 0) counts[store] = (counts[store] ?? 0) + n;
}

/**
 * Finds, exports and erases one person across the portal's stores (decision 059): the journal's
 * bodies through its search index (each confirmed in the body), then every other store's rows
 * that mention them (each confirmed in its text).
 */
export class PrivacyService {
  private readonly now: () => number;

  constructor(
    private readonly store: PrivacyStore,
    options: PrivacyServiceOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  /** Every record held about the person, store by store. */
  async find(subject: PersonalSubject): Promise<Found> {
    const found: Found = { counts: {}, records: [] };
    const ids = await this.store.journalBodyIds(searches(subject));
    for (const chunk of chunks(ids, perStep)) {
      const bodies = await this.store.journalBodies(chunk);
      const held = new Map<number, { items: unknown[]; mentions: number }>();
      for (const body of bodies) {
        const matches = findSubject(body.text, subject);
        if (matches.items.length > 0 || matches.mentions > 0) held.set(body.id, matches);
      }
      if (held.size === 0) continue;
      const calls = await this.store.callsHolding([...held.keys()]);
      const callIds = new Set<number>();
      for (const call of calls) {
        const matches = held.get(call.bodyId);
        if (!matches) continue;
        callIds.add(call.callId);
        found.records.push({
          store: 'journal',
          record: `call ${call.callId} (body ${call.bodyId})`,
          at: isoTime(call.at),
          ...matches,
        });
      }
      add(found.counts, 'journal', callIds.size);
      await nextTurn();
    }
    for (const source of textSources) {
      for (const row of await this.store.rowsMentioning(source, needles(subject))) {
        const matches = rowMatches(source, row, subject);
        if (matches.items.length === 0 && matches.mentions === 0) continue;
        add(found.counts, source.name, 1);
        found.records.push({
          store: source.name,
          record: row.key.join(' / '),
          at: isoTime(row.at),
          ...matches,
        });
      }
    }
    return found;
  }

  /**
   * Rewrites every record about the person with the placeholder, in steps of `perStep` records
   * with a turn of the event loop between them; the counts are of records rewritten, by store.
   */
  async erase(subject: PersonalSubject): Promise<{ counts: StoreCounts; erasedAt: string }> {
    const at = new Date(this.now());
    const counts: StoreCounts = {};
    const rewrote = new Set<string>();
    await this.store.whileErasing(() => this.eraseJournal(subject, at, counts, rewrote));
    for (const source of textSources) {
      const rows = await this.store.rowsMentioning(source, needles(subject));
      const rewritten = rows.flatMap((row) => {
        const texts = erasedTexts(source, row, subject, at);
        return texts ? [{ key: row.key, texts }] : [];
      });
      for (const chunk of chunks(rewritten, perStep)) {
        await this.store.rewriteRows(source, chunk, at.getTime());
        await nextTurn();
      }
      add(counts, source.name, rewritten.length);
      if (rewritten.length > 0) rewrote.add(source.table);
    }
    if (rewrote.size > 0) await this.store.reclaim([...rewrote]);
    return { counts, erasedAt: at.toISOString() };
  }

  /** Every table an erasure may write rewritten whole, where the database needs it (`compact`). */
  compact(): Promise<string[]> {
    return this.store.compact();
  }

  /**
   * The journal's bodies about the person rewritten, then their old words out of the index; the
   * tables written are added to `rewrote`.
   */
  private async eraseJournal(
    subject: PersonalSubject,
    at: Date,
    counts: StoreCounts,
    rewrote: Set<string>,
  ) {
    // A store's reads and writes are synchronous on SQLite: the event loop gets a turn between
    // them, or the search, the set-up and a first step would run as one block.
    await nextTurn();
    const ids = await this.store.journalBodyIds(searches(subject));
    await nextTurn();
    for (const chunk of chunks(ids, bodiesPerStep)) {
      const bodies = await this.store.journalBodies(chunk);
      const rewritten = bodies.flatMap((body) => {
        const erased = eraseSubject(body.text, subject, at);
        return erased.changed ? [{ id: body.id, text: erased.text }] : [];
      });
      if (rewritten.length > 0) {
        const calls = await this.store.callsHolding(rewritten.map((body) => body.id));
        add(counts, 'journal', new Set(calls.map((call) => call.callId)).size);
        await nextTurn();
        await this.store.rewriteJournalBodies(rewritten);
        rewrote.add('journal_bodies').add('journal_search');
      }
      await nextTurn();
    }
    if (ids.length > 0) while (await this.store.tidySearch()) await nextTurn();
  }
}

function rowMatches(
  source: TextSource,
  row: HeldRow,
  subject: PersonalSubject,
): { items: unknown[]; mentions: number } {
  const items: unknown[] = [];
  let mentions = 0;
  for (const text of Object.values(row.texts)) {
    if (text === null) continue;
    const read = source.reading === 'address' ? addressValues(text).join('\n') : text;
    const found = findSubject(read, subject);
    items.push(...found.items);
    mentions += found.mentions;
  }
  return { items, mentions };
}

function erasedTexts(
  source: TextSource,
  row: HeldRow,
  subject: PersonalSubject,
  at: Date,
): Record<string, string> | undefined {
  const texts: Record<string, string> = {};
  for (const [column, text] of Object.entries(row.texts)) {
    if (text === null) continue;
    if (source.reading === 'address') {
      const erased = rewriteAddressValues(text, (value) => {
        const done = eraseSubject(value, subject, at);
        return done.changed ? done.text : undefined;
      });
      if (erased.changed > 0) texts[column] = erased.text;
      continue;
    }
    const erased = eraseSubject(text, subject, at);
    if (erased.changed) texts[column] = erased.text;
  }
  return Object.keys(texts).length > 0 ? texts : undefined;
}
