import { describe, expect, it } from 'vitest';
import { candidateCatalog } from './candidate-catalog';
import { requisitionCatalog } from './requisition-catalog';
import { mapHeaders, normalizeHeader, readDateCell, repeatedItems, rowToItem } from './spreadsheet';

const keysOf = (headers: string[], mapping?: Record<string, string>) =>
  mapHeaders(headers, requisitionCatalog, mapping).map((column) => column.key);

describe('header matching', () => {
  it('ignores case, spaces, punctuation and accents', () => {
    expect(normalizeHeader(' Job Title: ')).toBe('jobtitle');
    expect(normalizeHeader('Réq_class-ID')).toBe('reqclassid');
  });

  it('matches wire names, the VMS’s PascalCase names, labels and aliases', () => {
    const columns = mapHeaders(
      ['TitleRole', 'Number of openings', 'Client internal req', 'Headcount', 'Positions'],
      requisitionCatalog,
    );
    expect(columns.map((column) => [column.key, column.match])).toEqual([
      ['titlerole', 'wire name'],
      ['noofopenings', 'label'],
      // A label that reads as its wire name once spaces are gone counts as the wire name.
      ['clientinternalreq', 'wire name'],
      // "Headcount" and "Positions" are aliases of openings, already filled.
      [null, null],
      [null, null],
    ]);
    expect(columns[3]?.note).toBe(
      'noofopenings is already filled from column “Number of openings”',
    );
    expect(keysOf(['Headcount'])).toEqual(['noofopenings']);
  });

  it('matches skill and question columns by their number, written either way', () => {
    expect(
      keysOf(['Skill 3 description', 'skilldescription4', 'Skill3Description', 'Question 2 text']),
    ).toEqual(['skilldescription3', 'skilldescription4', null, 'questiondescription2']);
    expect(
      mapHeaders(['Answer to question 2', 'answer3'], candidateCatalog).map((c) => c.key),
    ).toEqual(['answer2', 'answer3']);
  });

  it('leaves a header that names no field unmapped, and a saved mapping wins', () => {
    const columns = mapHeaders(['Notes', 'Our ref', 'Job title'], requisitionCatalog, {
      'Our ref': 'clientinternalreq',
      'Job title': '',
    });
    expect(columns.map((column) => column.key)).toEqual([null, 'clientinternalreq', null]);
    expect(columns.map((column) => column.note)).toEqual([
      'names no field',
      undefined,
      'ignored by the mapping',
    ]);
  });
});

describe('date cells', () => {
  it('reads ISO, month-first and spreadsheet serial dates, and sends the outbound format', () => {
    expect(readDateCell('2026-03-31', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2026-03-31' });
    expect(readDateCell('3/31/2026', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2026-03-31' });
    expect(readDateCell('03/04/2026', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2026-03-04' });
    // Serial 46112 is 2026-03-31 in the 1900 date system; 45658 is 2025-01-01.
    expect(readDateCell('46112', 'MM/DD/YYYY')).toEqual({ ok: true, value: '03/31/2026' });
    expect(readDateCell('45658', 'YYYY-MM-DD')).toEqual({ ok: true, value: '2025-01-01' });
    expect(readDateCell('  ', 'YYYY-MM-DD')).toEqual({ ok: true, value: '' });
  });

  it('flags what it would have to guess, saying how to write it', () => {
    const message = (cell: string) => {
      const read = readDateCell(cell, 'YYYY-MM-DD');
      return read.ok ? null : read.message;
    };
    expect(message('31/03/2026')).toMatch(/reads as day first/);
    expect(message('3/31/26')).toMatch(/two-digit year/);
    expect(message('2026-02-30')).toMatch(/is not a date/);
    expect(message('next week')).toMatch(/is not a date; write it as YYYY-MM-DD/);
  });
});

describe('rows and repeats', () => {
  it('builds a wire item from the mapped cells, with unreadable dates kept and reported', () => {
    const columns = mapHeaders(['Job title', 'Start date', 'Notes'], requisitionCatalog);
    const item = rowToItem(
      [' Nurse ', '31/03/2026', 'x'],
      columns,
      requisitionCatalog,
      'YYYY-MM-DD',
    );
    expect(item.wire).toEqual({ titlerole: 'Nurse', startdate: '31/03/2026' });
    expect([...item.cellProblems.keys()]).toEqual(['startdate']);
  });

  it('flags each repeat with the first of its kind, ignoring items without an identity', () => {
    const repeats = repeatedItems(['A', '', 'B', 'A', '', 'A'], (value) => value);
    expect([...repeats]).toEqual([
      [3, { first: 0, identity: 'A' }],
      [5, { first: 0, identity: 'A' }],
    ]);
  });
});
