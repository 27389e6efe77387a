import writeXlsxFile from 'write-excel-file/node';
import type { Row } from 'write-excel-file/node';
import { questionNumbers, skillNumbers } from '@/sandbox/requisition-record';
import { seedClients } from '@/sandbox/seed';
import { seedRequisitions } from '@/sandbox/seed-requisitions';

/**
 * The files the bulk-import journeys import, built from a run id so their
 * client internal reqs, e-mails and vendor candidate ids are new to the VMS on every run. Each
 * file says which cells it puts in error and which of them a person fixes by typing a value;
 * src/test-support/import-files.test.ts proves those claims against the domain's own rules and
 * sends the valid rows to the sandbox. Values are valid for Northwind Health (client org 1001,
 * docs/sandbox.md, "Seeded data"); dates are in 2027–2028, so the files do not age.
 */

/** A cell the domain's rules report, at its spreadsheet row (the header is row 1). */
export interface ImportErrorCell {
  row: number;
  header: string;
  /** The wire key of the column. */
  field: string;
}

/** An error cell that is put right by typing `value` into it: its row is then valid. */
export interface ImportFix extends ImportErrorCell {
  value: string;
}

export interface ImportFile {
  bytes: Uint8Array;
  errors: ImportErrorCell[];
  fixable: ImportFix[];
  /** The reference of each row in file order: client internal reqs, vendor candidate ids. */
  references: string[];
}

/** What Excel on Windows saves as "CSV": quoted only where needed, CRLF line ends. */
function csvText(rows: readonly (readonly string[])[]): string {
  const quote = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);
  return rows.map((row) => row.map(quote).join(',')).join('\r\n') + '\r\n';
}

/** Windows-1252's bytes 0x80–0xFF by character (its 0x80–0x9F are not Latin-1's). */
const cp1252Bytes = new Map(
  Array.from({ length: 128 }, (_, k) => {
    const byte = 0x80 + k;
    return [new TextDecoder('windows-1252').decode(Uint8Array.of(byte)), byte] as const;
  }),
);

function windows1252(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => {
    const byte = char.charCodeAt(0) < 0x80 ? char.charCodeAt(0) : cp1252Bytes.get(char);
    if (byte === undefined) throw new RangeError(`“${char}” has no Windows-1252 byte`);
    return byte;
  });
}

/** Excel's "CSV UTF-8": a byte-order mark, then UTF-8. */
function utf8WithBom(text: string): Uint8Array {
  return Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(text)]);
}

const pad = (n: number) => String(n).padStart(2, '0');

// ---------------------------------------------------------------- 50 requisitions, label headers

/** Catalog labels, as a recruiter's sheet names its columns; every Insert field, a few optional. */
export const requisitionHeaders = [
  'Client internal req',
  'Job title',
  'Org ID',
  'Req class ID',
  'Number of openings',
  'Engagement type',
  'Hours per day',
  'Days per week',
  'Start date',
  'End date',
  'Short description',
  'Requisition owner ID',
  'Priority',
  'Work location reference code',
] as const;
type RequisitionHeader = (typeof requisitionHeaders)[number];

/** Accents and punctuation Windows-1252 has (è ü – ’ “ ” € Œ …) and a comma that needs quotes. */
const titles = [
  'Crèche nurse',
  'Café manager – Zürich',
  'Sous-chef, brasserie',
  'Pâtissier',
  'Data analyst – São Paulo',
  'Œnologist',
  'Façade engineer',
  'Réceptionniste bilingue',
  'Staff nurse',
  'Backend developer',
  'QA analyst',
  'Network engineer',
  'Payroll specialist',
  'Help desk technician',
  'Project manager – “Phoenix”',
];
const descriptions = [
  'Day shift at the Zürich crèche.',
  'Budget up to €45 per hour.',
  'Joins the team’s night rota.',
  'Ward 3, twelve-hour shifts.',
  'Builds and runs the claims API.',
];
const owners = ['mreyes', 'dchen', 'pokafor', 'jlindqvist', 'amorgan'];
const workLocations = ['WL-BOS', 'WL-NYC', 'WL-REMOTE', ''];

/** Day 13–27 of a month, so a month-first date is never read as another day. */
function requisitionDates(i: number): { start: string; end: string } {
  const month = 1 + (i % 12);
  const day = 13 + (i % 15);
  // Every fifth row is typed month first (MM/DD/YYYY), as US spreadsheets show dates.
  const write = (year: number) =>
    i % 5 === 3 ? `${pad(month)}/${pad(day)}/${year}` : `${year}-${pad(month)}-${pad(day)}`;
  return { start: write(2027), end: write(2028) };
}

/**
 * `requisitionsCsv`'s error cells. Two rows have one error a person fixes by typing (7, 24);
 * three keep theirs (15: two, 33: two, 46: one): 45 rows valid as read, 47 once fixed.
 */
const repeatedRow = 12;

export function requisitionsCsv(runId: string): ImportFile {
  const references = Array.from({ length: 50 }, (_, i) => `IMP-${runId}-${pad(i + 1)}`);
  const rows = references.map((reference, i): Record<RequisitionHeader, string> => {
    const { start, end } = requisitionDates(i);
    return {
      'Client internal req': reference,
      'Job title': titles[i % titles.length] ?? '',
      'Org ID': '1001',
      'Req class ID': String(101 + (i % 5)),
      'Number of openings': String(1 + (i % 3)),
      'Engagement type': String(1 + (i % 3)),
      'Hours per day': ['8', '7.5', '12', '6'][i % 4] ?? '8',
      'Days per week': ['5', '4', '3', '5'][i % 4] ?? '5',
      'Start date': start,
      'End date': end,
      'Short description': descriptions[i % descriptions.length] ?? '',
      'Requisition owner ID': owners[i % owners.length] ?? 'mreyes',
      Priority: i % 4 === 0 ? '' : String(1 + (i % 3)),
      'Work location reference code': workLocations[i % workLocations.length] ?? '',
    };
  });
  const errors: ImportErrorCell[] = [];
  const fixable: ImportFix[] = [];
  const spoil = (row: number, header: RequisitionHeader, field: string, cell: string) => {
    const target = rows[row - 2];
    if (!target) throw new RangeError(`row ${row} is not in the file`);
    target[header] = cell;
    errors.push({ row, header, field });
  };
  // A word where a number goes; fixed by typing the number.
  spoil(7, 'Number of openings', 'noofopenings', 'two');
  fixable.push({ row: 7, header: 'Number of openings', field: 'noofopenings', value: '2' });
  // A title left out, and half a day in a whole-number column.
  spoil(15, 'Job title', 'titlerole', '');
  spoil(15, 'Days per week', 'daysperweek', '5.5');
  // A date with a two-digit year; fixed by typing it year first.
  spoil(24, 'Start date', 'startdate', '31/03/27');
  fixable.push({ row: 24, header: 'Start date', field: 'startdate', value: '2027-03-31' });
  // A word that names no engagement type, and an end before the start.
  spoil(33, 'Engagement type', 'engagementtype', 'Contractor');
  spoil(33, 'End date', 'enddate', '2027-02-14');
  // Row 12's reference again: the later row is the one in error.
  spoil(46, 'Client internal req', 'clientinternalreq', references[repeatedRow - 2] ?? '');

  const text = csvText([
    requisitionHeaders,
    ...rows.map((row) => requisitionHeaders.map((h) => row[h])),
  ]);
  return {
    bytes: windows1252(text),
    errors: errors.sort((a, b) => a.row - b.row),
    fixable,
    references: rows.map((row) => row['Client internal req']),
  };
}

/**
 * A long sheet of valid requisitions under `requisitionHeaders`, row n (0-based) titled "Role n"
 * with the reference `SCR-{runId}-n`, and one error: 9 days a week in row `badRow`.
 */
export function longRequisitionsCsv(runId: string, rows: number, badRow: number): Uint8Array {
  const cells = (n: number): Record<RequisitionHeader, string> => ({
    'Client internal req': `SCR-${runId}-${n}`,
    'Job title': `Role ${n}`,
    'Org ID': '1001',
    'Req class ID': '101',
    'Number of openings': '1',
    'Engagement type': '1',
    'Hours per day': '8',
    'Days per week': n === badRow ? '9' : '5',
    'Start date': '2027-03-01',
    'End date': '2027-09-01',
    'Short description': `Description ${n}`,
    'Requisition owner ID': 'mreyes',
    Priority: '',
    'Work location reference code': '',
  });
  const text = csvText([
    requisitionHeaders,
    ...Array.from({ length: rows }, (_, n) => {
      const row = cells(n);
      return requisitionHeaders.map((header) => row[header]);
    }),
  ]);
  return new TextEncoder().encode(text);
}

// ------------------------------------------------------------- custom headers and their template

/** Headers no catalog name or alias matches: mapped by hand once, then by the saved template. */
export const customHeaders = ['Our ref', 'Role name', 'Openings count', 'Hiring manager', 'Notes'];

/** The mapping a person saves as a template for `customHeaderCsv`'s files ('' ignores). */
export const templateMapping: Readonly<Record<string, string>> = {
  'Our ref': 'clientinternalreq',
  'Role name': 'titlerole',
  'Openings count': 'noofopenings',
  'Org ID': 'orgid',
  'Req class ID': 'reqclassid',
  'Engagement type': 'engagementtype',
  'Hours per day': 'hoursunitsperday',
  'Days per week': 'daysperweek',
  'Short description': 'shortdescription',
  'Hiring manager': 'reqownerid',
  Notes: '',
};

const customFileHeaders = Object.keys(templateMapping);

/**
 * Five valid requisitions under the same custom headers in each part, with references of their
 * own; saved as Excel's "CSV UTF-8" (with a byte-order mark).
 */
export function customHeaderCsv(
  runId: string,
  part: 1 | 2,
): { bytes: Uint8Array; headers: string[]; references: string[] } {
  const references = Array.from({ length: 5 }, (_, i) => `TPL-${runId}-${part}-${i + 1}`);
  const partTitles =
    part === 1
      ? ['Pâtissier – Lyon', 'Line cook', 'Barista', 'Sommelier', 'Kitchen porter']
      : ['Hygiéniste', 'Dental nurse', 'Practice manager', 'Receptionist', 'Sterile tech'];
  const rows = references.map((reference, i) => {
    const cells: Record<string, string> = {
      'Our ref': reference,
      'Role name': partTitles[i] ?? '',
      'Openings count': String(1 + i),
      'Org ID': '1001',
      'Req class ID': String(101 + i),
      'Engagement type': String(1 + (i % 3)),
      'Hours per day': '8',
      'Days per week': '5',
      'Short description': `Template run, part ${part}, row ${i + 1}.`,
      'Hiring manager': owners[i] ?? 'mreyes',
      Notes: i === 0 ? 'call the agency first' : '',
    };
    return customFileHeaders.map((header) => cells[header] ?? '');
  });
  return {
    bytes: utf8WithBom(csvText([customFileHeaders, ...rows])),
    headers: [...customFileHeaders],
    references,
  };
}

// ------------------------------------------------------------------ 20 candidates, an XLSX

/** Requisitions of the seed that take candidates (Open or Interview occurring, org 1001). */
export const candidateRequisitionIds = ['40001', '40002', '40003', '40012'];

const seeded = seedRequisitions(seedClients);

/** How many skills and questions a seeded requisition has. */
function requisitionShape(reqId: string): { skills: number; questions: number } {
  const requisition = seeded.find((entry) => String(entry.reqId) === reqId);
  if (!requisition) throw new RangeError(`requisition ${reqId} is not in the sandbox's seed`);
  return {
    skills: skillNumbers(requisition.record).length,
    questions: questionNumbers(requisition.record).length,
  };
}

const people = [
  ['Ada', 'Lovelace'],
  ['Grace', 'Hopper'],
  ['Zoë', 'Brontë'],
  ['José', 'Núñez'],
  ['Renée', 'Lefèvre'],
  ['Alan', 'Turing'],
  ['Katherine', 'Johnson'],
  ['Søren', 'Kierkegaard'],
  ['Edsger', 'Dijkstra'],
  ['Barbara', 'Liskov'],
] as const;

/** A name as it goes into an e-mail address: Núñez → nunez. */
const ascii = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();

/**
 * An XLSX of 20 candidates to `requisitionIds` (in turn), with skill responses and answers in
 * columns named by number ("Skill 2 response", "Answer 1") and availability as real date cells.
 * Row 6's e-mail lacks its @ (fixed by typing it), row 12 writes a skill response's label, row 18
 * repeats row 4's candidate (the e-mail in capitals) for the same requisition: 17 rows valid as
 * read, 18 once fixed.
 */
export async function candidatesXlsx(runId: string, requisitionIds: string[]): Promise<ImportFile> {
  if (requisitionIds.length === 0) throw new RangeError('give at least one requisition id');
  const shapes = new Map(requisitionIds.map((id) => [id, requisitionShape(id)]));
  const skillColumns = Math.max(...[...shapes.values()].map((shape) => shape.skills));
  const questionColumns = Math.max(...[...shapes.values()].map((shape) => shape.questions));
  const headers = [
    'Req ID',
    'First name',
    'Last name',
    'E-mail',
    'Engagement type',
    'Vendor candidate ID',
    'Availability',
    'Bill rate',
    ...Array.from({ length: skillColumns }, (_, k) => [
      `Skill ${k + 1} response`,
      `Skill ${k + 1} experience`,
      `Skill ${k + 1} experience unit`,
    ]).flat(),
    ...Array.from({ length: questionColumns }, (_, k) => `Answer ${k + 1}`),
  ];
  const tag = runId.toLowerCase().replace(/[^a-z0-9]/g, '');
  const reqOf = (i: number) => requisitionIds[i % requisitionIds.length] ?? '';
  // Row 18 repeats row 4 (index 2): it goes to the same requisition.
  const repeatOf = 4;
  const repeatRow = 18;
  const plan = Array.from({ length: 20 }, (_, i) => {
    const [first, last] = people[i % people.length] ?? people[0];
    const reqId = i + 2 === repeatRow ? reqOf(repeatOf - 2) : reqOf(i);
    return {
      reqId,
      first,
      last,
      email: `${ascii(first)}.${ascii(last)}.${i + 1}.${tag}@vendor.example`,
      reference: `CAND-${runId}-${pad(i + 1)}`,
    };
  });
  const repeated = plan[repeatOf - 2];
  const repeating = plan[repeatRow - 2];
  // The same person entered twice, the second time with the e-mail in capitals.
  if (repeated && repeating)
    Object.assign(repeating, {
      first: repeated.first,
      last: repeated.last,
      email: repeated.email.toUpperCase(),
    });

  const rows: Row[] = plan.map(({ reqId, first, last, email, reference }, i) => {
    const shape = shapes.get(reqId) ?? { skills: 0, questions: 0 };
    const skillCells = Array.from({ length: skillColumns }, (_, k) =>
      k < shape.skills ? [1 + ((i + k) % 3), 1 + ((i + k) % 6), 4] : [null, null, null],
    ).flat();
    const answerCells = Array.from({ length: questionColumns }, (_, k) =>
      k < shape.questions ? `Yes – answer ${k + 1} from ${first}` : null,
    );
    return [
      Number(reqId),
      first,
      last,
      email,
      1 + (i % 4),
      reference,
      // A real date cell: Excel stores a serial number shown as a date.
      { value: new Date(Date.UTC(2027, i % 12, 1 + (i % 28))), format: 'yyyy-mm-dd' },
      // 40002 takes no bill rate above 65.00 (maximumbillrate 0).
      55 + (i % 10),
      ...skillCells,
      ...answerCells,
    ];
  });

  const errors: ImportErrorCell[] = [];
  const fixable: ImportFix[] = [];
  const column = (header: string) => {
    const index = headers.indexOf(header);
    if (index < 0) throw new RangeError(`the sheet has no column “${header}”`);
    return index;
  };
  const spoil = (row: number, header: string, field: string, cell: string) => {
    const target = rows[row - 2];
    if (!target) throw new RangeError(`row ${row} is not in the file`);
    target[column(header)] = cell;
    errors.push({ row, header, field });
  };
  const typo = plan[6 - 2];
  if (!typo || (shapes.get(plan[12 - 2]?.reqId ?? '')?.skills ?? 0) < 2)
    throw new RangeError('row 12 must go to a requisition with at least 2 skills');
  spoil(6, 'E-mail', 'candemail', typo.email.replace('@', '.'));
  fixable.push({ row: 6, header: 'E-mail', field: 'candemail', value: typo.email });
  // A word that names no skill response (Meets, mistyped).
  spoil(12, 'Skill 2 response', 'skill2response', 'Meats');
  errors.push({ row: repeatRow, header: 'E-mail', field: 'candemail' });

  const buffer = await writeXlsxFile([
    { sheet: 'Candidates', data: [headers, ...rows] },
  ]).toBuffer();
  return {
    bytes: new Uint8Array(buffer),
    errors: errors.sort((a, b) => a.row - b.row),
    fixable,
    references: plan.map((entry) => entry.reference),
  };
}

/**
 * 50 requisitions valid in the portal, as a recruiter's sheet (CSV): rows 17 and 38 name req
 * class 999, which org 1001 lacks, so the VMS refuses those two. `failing`: their references.
 */
export function settlingSheet(run: string): { csv: string; failing: string[] } {
  const failing = [17, 38];
  const rows = Array.from({ length: 50 }, (_, index) => {
    const n = index + 1;
    const cells: Record<(typeof requisitionHeaders)[number], string> = {
      'Client internal req': `${run}-${n}`,
      'Job title': `Role ${n}`,
      'Org ID': '1001',
      'Req class ID': failing.includes(n) ? '999' : '101',
      'Number of openings': '1',
      'Engagement type': '1',
      'Hours per day': '8',
      'Days per week': '5',
      'Start date': '2027-03-01',
      'End date': '2027-09-01',
      'Short description': `Description ${n}`,
      'Requisition owner ID': 'mreyes',
      Priority: '',
      'Work location reference code': '',
    };
    return requisitionHeaders.map((header) => cells[header]).join(',');
  });
  return {
    csv: [requisitionHeaders.join(','), ...rows].join('\r\n'),
    failing: failing.map((n) => `${run}-${n}`),
  };
}
