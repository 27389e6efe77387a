import { describe, expect, it } from 'vitest';
import { candidateField } from './candidate-catalog';
import type { DateFormat, FieldDef } from './catalog-types';
import { formatWireDate, parseWireDate, wireDateToIso } from './dates';
import { fieldProblem, isBlank } from './field-rules';
import { requisitionField } from './requisition-catalog';

/** The type rules (spec, "Data type words used"), one real field of each type. */
function def(field: FieldDef | undefined): FieldDef {
  if (!field) throw new Error('field missing from the catalog');
  return field;
}
const orgid = def(requisitionField('orgid')); // INTEGER, no bounds
const maxpayrate = def(requisitionField('maxpayrate')); // DECIMAL, no bounds
const startdate = def(requisitionField('startdate')); // DATE
const requesttype = def(requisitionField('requesttype')); // FLAG I/A
const independent = def(candidateField('iscandindependantcontractor')); // FLAG Y/N
const candemail = def(candidateField('candemail')); // STRING, e-mail
const altemail = def(requisitionField('altemail')); // STRING, e-mail
const titlerole = def(requisitionField('titlerole')); // STRING, free text

const iso: DateFormat = 'YYYY-MM-DD';
const us: DateFormat = 'MM/DD/YYYY';
const problem = (field: FieldDef, value: string, format: DateFormat = iso) =>
  fieldProblem(field, value, format);

describe('blank values', () => {
  it('pass the field rules: whether a field is required is an item rule', () => {
    for (const field of [orgid, maxpayrate, startdate, requesttype, candemail]) {
      expect(problem(field, '')).toBeNull();
      expect(problem(field, '   ')).toBeNull();
    }
    expect(isBlank(' \t')).toBe(true);
    expect(isBlank(undefined)).toBe(true);
    expect(isBlank(' x ')).toBe(false);
  });
});

describe('INTEGER', () => {
  it.each(['0', '7', '1001', '0042'])('accepts %j', (value) => {
    expect(problem(orgid, value)).toBeNull();
  });
  it.each(['12.5', '-3', 'abc', '1 2', '1e3', '+1', '0x10', '١٢'])('refuses %j', (value) => {
    const message = problem(orgid, value);
    expect(message).toMatch(/Org ID/);
    expect(message).toMatch(/whole number/);
  });
});

describe('DECIMAL', () => {
  it('says a decimal comma is one, and what to write instead', () => {
    expect(problem(maxpayrate, '7,5')).toBe(
      'Max pay rate is a number written with a decimal comma (7,5); write it with a point: 7.5',
    );
    // Three digits after the comma may be thousands: both readings are offered.
    expect(problem(maxpayrate, '1,500')).toBe(
      'Max pay rate has a comma in it (1,500): numbers take no thousands separator and a point for decimals; write 1500, or 1.500 if the comma is a decimal comma',
    );
  });
  it.each(['0', '42', '42.5', '42.50', '0.125', '100000'])('accepts %j', (value) => {
    expect(problem(maxpayrate, value)).toBeNull();
  });
  it.each(['abc', '1,5', '-1', '42.', '.5', '4 2', 'NaN', 'Infinity'])('refuses %j', (value) => {
    const message = problem(maxpayrate, value);
    expect(message).toMatch(/Max pay rate/);
    expect(message).toMatch(/number/);
  });
});

describe('DATE, YYYY-MM-DD (the default VMS_DATE_FORMAT)', () => {
  it.each(['2026-03-31', '2026-12-01', '2024-02-29', '2000-02-29', '0001-01-01'])(
    'accepts the real date %j',
    (value) => {
      expect(problem(startdate, value, iso)).toBeNull();
    },
  );
  it.each([
    ['2026-02-30', 'impossible day'],
    ['2026-04-31', 'April has 30 days'],
    ['2023-02-29', 'not a leap year'],
    ['1900-02-29', 'centuries are leap years only every 400 years'],
    ['2026-13-01', 'no month 13'],
    ['2026-00-10', 'no month 0'],
    ['2026-01-00', 'no day 0'],
    ['2026-3-31', 'month not zero-padded'],
    ['03/31/2026', 'the other format'],
    ['2026-03-31T00:00', 'a date-time'],
    ['tomorrow', 'not a date'],
  ])('refuses %j (%s) and says which format to use', (value) => {
    const message = problem(startdate, value, iso);
    expect(message).toMatch(/Start date/);
    expect(message).toMatch(/YYYY-MM-DD/);
  });
});

describe('DATE, MM/DD/YYYY', () => {
  it.each(['03/31/2026', '02/29/2024', '12/01/2026', '02/29/2000'])(
    'accepts the real date %j',
    (value) => {
      expect(problem(startdate, value, us)).toBeNull();
    },
  );
  it.each([
    ['02/30/2026', 'impossible day'],
    ['02/29/2023', 'not a leap year'],
    ['02/29/2100', 'not a leap year (century)'],
    ['13/01/2026', 'no month 13'],
    ['31/03/2026', 'day and month swapped'],
    ['3/31/2026', 'month not zero-padded'],
    ['2026-03-31', 'the other format'],
  ])('refuses %j (%s) and says which format to use', (value) => {
    const message = problem(startdate, value, us);
    expect(message).toMatch(/Start date/);
    expect(message).toMatch(/MM\/DD\/YYYY/);
  });
});

describe('FLAG', () => {
  it.each(['I', 'A'])('requesttype accepts %j', (value) => {
    expect(problem(requesttype, value)).toBeNull();
  });
  it.each(['i', 'a', 'U', 'Insert', 'Y', ' I'])('requesttype refuses %j', (value) => {
    expect(problem(requesttype, value)).toMatch(/Request type must be one of/);
  });
  it.each(['Y', 'N'])('a Y/N flag accepts %j', (value) => {
    expect(problem(independent, value)).toBeNull();
  });
  it.each(['y', 'n', 'Yes', 'No', '1', '0', 'T'])('a Y/N flag refuses %j', (value) => {
    const message = problem(independent, value);
    expect(message).toMatch(/one of/);
    expect(message).toContain('Y');
    expect(message).toContain('N');
  });
});

describe('STRING', () => {
  it('takes any text for a free-text field', () => {
    expect(problem(titlerole, 'Senior Java Developer — Toronto | 2026')).toBeNull();
    expect(problem(titlerole, '123')).toBeNull();
  });

  it.each(['name@example.com', 'a.b+c@x-y.example.org', 'o.neil_1@example.co.uk'])(
    'an e-mail field accepts %j',
    (value) => {
      expect(problem(candemail, value)).toBeNull();
      expect(problem(altemail, value)).toBeNull();
    },
  );
  it.each(['ada', 'ada@', '@example.com', 'ada@example', 'a da@example.com', 'a@@example.com'])(
    'an e-mail field refuses %j',
    (value) => {
      expect(problem(candemail, value)).toMatch(/E-mail must be a valid e-mail address/);
      expect(problem(altemail, value)).toMatch(/Alternate e-mail.*valid e-mail address/);
    },
  );
});

describe('dates.ts conversions', () => {
  it('parses a wire date of either format to ISO, or null', () => {
    expect(parseWireDate('2026-03-31', iso)).toBe('2026-03-31');
    expect(parseWireDate('03/31/2026', us)).toBe('2026-03-31');
    expect(parseWireDate('02/30/2026', us)).toBeNull();
    expect(parseWireDate('2026-02-30', iso)).toBeNull();
  });

  it('writes an ISO date in the configured format', () => {
    expect(formatWireDate('2026-03-31', iso)).toBe('2026-03-31');
    expect(formatWireDate('2026-03-31', us)).toBe('03/31/2026');
    expect(formatWireDate('2024-02-29', us)).toBe('02/29/2024');
    // Not a real date: left alone, so the wire rules report it rather than a wrong date.
    expect(formatWireDate('2026-02-30', us)).toBe('2026-02-30');
    expect(formatWireDate('', us)).toBe('');
  });

  it('reads a wire date back to ISO for a native date input', () => {
    expect(wireDateToIso('12/01/2026', us)).toBe('2026-12-01');
    expect(wireDateToIso('2026-12-01', iso)).toBe('2026-12-01');
    expect(wireDateToIso('soon', us)).toBe('soon');
  });
});
