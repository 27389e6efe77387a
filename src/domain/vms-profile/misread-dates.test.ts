import { describe, expect, it } from 'vitest';
import { answerFromVms } from './dialect';
import { dayMonthSwapped } from './list-dialect';
import { sandboxProfile } from './presets';
import type { VmsProfile } from './profile';

/*
 * A profile that calls a day-first VMS month first reads every time whose day is 12 or less as
 * another date. The list's other times, whose day is above 12, do not read at all: they prove the
 * order wrong, and then no time of that list is shown as the profile read it.
 */

function monthFirst(timeZone = 'UTC'): VmsProfile {
  const own = sandboxProfile();
  return { ...own, dates: { ...own.dates, dateTimes: 'MM/DD/YYYY HH:mm:ss', timeZone } };
}

const record = (reqId: string, created: string, updated: string) => ({
  Req_Id: reqId,
  Req_Created_Date_Time: created,
  Req_Updated_Date_Time: updated,
  TitleRole: `Requisition ${reqId}`,
});

function listed(profile: VmsProfile, records: ReadonlyArray<Record<string, string>>) {
  const text = answerFromVms(profile, 'requisitions', 200, JSON.stringify(records));
  if (typeof text !== 'string') throw new Error(text.unreadable);
  return (JSON.parse(text) as Array<Record<string, string>>).map((row) => [
    row.Req_Id,
    row.Req_Created_Date_Time,
    row.Req_Updated_Date_Time,
  ]);
}

describe('a list whose times prove the profile’s day and month order wrong', () => {
  it('shows every time that reads both ways as the VMS wrote it', () => {
    expect(
      listed(monthFirst(), [
        record('1', '05/03/2026 09:00:00', '15/03/2026 07:00:00'),
        record('2', '02/11/2026 10:30:00', '11/02/2026 08:00:00'),
      ]),
    ).toEqual([
      ['1', '05/03/2026 09:00:00', '15/03/2026 07:00:00'],
      ['2', '02/11/2026 10:30:00', '11/02/2026 08:00:00'],
    ]);
  });

  it('keeps the texts exactly in a zone of its own', () => {
    expect(
      listed(monthFirst('America/New_York'), [
        record('1', '07/03/2026 23:15:00', '28/03/2026 01:00:00'),
      ]),
    ).toEqual([['1', '07/03/2026 23:15:00', '28/03/2026 01:00:00']]);
  });

  it('reads the times as the profile says while none proves it wrong', () => {
    expect(
      listed(monthFirst(), [
        record('1', '05/03/2026 09:00:00', '03/15/2026 07:00:00'),
        // Not a date in either order: no evidence about the order.
        record('2', '02/11/2026 10:30:00', 'not yet'),
      ]),
    ).toEqual([
      ['1', '2026-05-03T09:00:00Z', '2026-03-15T07:00:00Z'],
      ['2', '2026-02-11T10:30:00Z', 'not yet'],
    ]);
  });

  it('keeps a time that reads only in the profile’s order', () => {
    expect(
      listed(monthFirst(), [
        record('1', '03/25/2026 09:00:00', '25/03/2026 09:00:00'),
        record('2', '04/05/2026 09:00:00', '04/05/2026 09:00:00'),
      ]),
    ).toEqual([
      ['1', '2026-03-25T09:00:00Z', '25/03/2026 09:00:00'],
      ['2', '04/05/2026 09:00:00', '04/05/2026 09:00:00'],
    ]);
  });
});

describe('dayMonthSwapped', () => {
  it.each([
    ['DD/MM/YYYY HH:mm:ss', 'MM/DD/YYYY HH:mm:ss'],
    ['M/D/YYYY h:mm A', 'D/M/YYYY h:mm A'],
    ['D.M.YYYY [Day] HH:mm', 'M.D.YYYY [Day] HH:mm'],
  ])('%s ↔ %s', (pattern, swapped) => {
    expect(dayMonthSwapped(pattern)).toBe(swapped);
    expect(dayMonthSwapped(swapped)).toBe(pattern);
  });

  it.each(['iso-8601', 'unix-seconds', 'YYYY HH:mm'])('%s has no other order', (pattern) => {
    expect(dayMonthSwapped(pattern)).toBeNull();
  });
});
