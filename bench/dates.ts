/**
 * Dates benchmark: 100,000 record dates read as a VMS's profile says they are written, as the
 * proxy reads a list of that many records: DATE fields (DD/MM/YYYY), and created/updated
 * date-times written day first in UTC, and with a 12-hour clock in New York's local time.
 * Budget: each 100,000 in under 100 ms (median of 21 warm runs). Peer, in the same run: a plain
 * regular expression and `Date.UTC` for the one fixed day-first format, what someone would write
 * by hand for one VMS (no time zone, no pattern).
 */
import { pathToFileURL } from 'node:url';
import { readDate, writeDate, writeDateTime } from '@/domain/date-patterns';
import { dateTimeToOwn } from '@/domain/vms-profile';
import type { Timing } from './measure';
import { formatTable, timeRuns } from './measure';

const COUNT = 100_000;
const BUDGET_MS = 100;

export interface DatesBenchResult {
  withinBudget: boolean;
}

/** Instants spread over 2000–2040, the same every run. */
function instants(): number[] {
  let seed = 40_001;
  const next = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  const from = Date.UTC(2000, 0, 1);
  const span = Date.UTC(2040, 0, 1) - from;
  return Array.from({ length: COUNT }, () => Math.floor((from + next() * span) / 60_000) * 60_000);
}

/** The fixed-format reader someone writes by hand: right for one VMS, and for nothing else. */
const dayFirst = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2}):(\d{2})$/;
function plainDayFirst(value: string): string {
  const match = dayFirst.exec(value);
  if (!match) return value;
  const [, day, month, year, hours, minutes, seconds] = match.map(Number);
  const date = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day, hours, minutes, seconds));
  return `${date.toISOString().slice(0, 19)}Z`;
}

/** Reads every value, keeping only the total length read so nothing else is measured. */
function readAll(values: string[], read: (value: string) => string): number {
  let length = 0;
  for (const value of values) length += read(value).length;
  return length;
}

export function runDatesBench(): DatesBenchResult {
  const moments = instants();
  const isoDates = moments.map((ms) => new Date(ms).toISOString().slice(0, 10));
  const recordDates = isoDates.map((iso) => writeDate(iso, 'DD/MM/YYYY') ?? iso);
  const dayFirstTimes = moments.map((ms) => writeDateTime(ms, 'DD/MM/YYYY HH:mm:ss', 'UTC'));
  const newYorkTimes = moments.map((ms) =>
    writeDateTime(ms, 'M/D/YYYY h:mm A', 'America/New_York'),
  );
  const dayFirstSetting = { dateTimes: 'DD/MM/YYYY HH:mm:ss', timeZone: 'UTC' };
  const newYorkSetting = { dateTimes: 'M/D/YYYY h:mm A', timeZone: 'America/New_York' };

  // Every reader must give the instants written, or the timing means nothing.
  const expectedIso = moments.map((ms) => `${new Date(ms).toISOString().slice(0, 19)}Z`);
  const check = (name: string, read: string[], expected: string[]) => {
    const wrong = read.findIndex((value, i) => value !== expected[i]);
    if (wrong >= 0) throw new Error(`${name} read ${read[wrong]} for ${expected[wrong]}`);
  };
  check(
    'DATEs',
    recordDates.map((value) => readDate(value, 'DD/MM/YYYY') ?? value),
    isoDates,
  );
  check(
    'day-first',
    dayFirstTimes.map((value) => dateTimeToOwn(value, dayFirstSetting)),
    expectedIso,
  );
  check(
    'New York',
    newYorkTimes.map((value) => dateTimeToOwn(value, newYorkSetting)),
    expectedIso,
  );
  check('plain', dayFirstTimes.map(plainDayFirst), expectedIso);

  let sink = 0;
  const legs: [string, Timing, boolean][] = [
    [
      'record DATEs, DD/MM/YYYY',
      timeRuns(() => {
        sink += readAll(recordDates, (value) => readDate(value, 'DD/MM/YYYY') ?? value);
      }),
      true,
    ],
    [
      'date-times, DD/MM/YYYY HH:mm:ss, UTC',
      timeRuns(() => {
        sink += readAll(dayFirstTimes, (value) => dateTimeToOwn(value, dayFirstSetting));
      }),
      true,
    ],
    [
      'date-times, M/D/YYYY h:mm A, New York',
      timeRuns(() => {
        sink += readAll(newYorkTimes, (value) => dateTimeToOwn(value, newYorkSetting));
      }),
      true,
    ],
    [
      'peer: plain regex + Date.UTC, day-first UTC',
      timeRuns(() => {
        sink += readAll(dayFirstTimes, plainDayFirst);
      }),
      false,
    ],
  ];
  const peer = legs[3]?.[1].medianMs ?? 0;
  const withinBudget = legs.every(
    ([, timing, budgeted]) => !budgeted || timing.medianMs < BUDGET_MS,
  );

  console.log(
    `\nDates: read ${COUNT.toLocaleString('en-US')} record dates as a profile writes them, ${legs[0]?.[1].runs} runs after warm-up (${sink.toLocaleString('en-US')} characters read in all)`,
  );
  console.log(
    formatTable(
      legs.map(([name, timing]) => ({
        reading: name,
        'ms per 100,000 (median)': timing.medianMs.toFixed(1),
        'ms per 100,000 (best)': timing.bestMs.toFixed(1),
        'ratio to peer': (timing.medianMs / peer).toFixed(2),
      })),
    ),
  );
  const worst = Math.max(...legs.filter(([, , b]) => b).map(([, timing]) => timing.medianMs));
  console.log(
    `Budget: ${COUNT.toLocaleString('en-US')} dates < ${BUDGET_MS} ms each → ${withinBudget ? 'met' : 'MISSED'} (slowest ${worst.toFixed(1)} ms; ratio to budget ${(worst / BUDGET_MS).toFixed(2)})`,
  );
  return { withinBudget };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = runDatesBench();
  if (!result.withinBudget) process.exitCode = 1;
}
