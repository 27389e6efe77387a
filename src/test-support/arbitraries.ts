/**
 * fast-check arbitraries for VALID form models, for the property tests. Allowed values and bounds
 * are transcribed from the spec and decision 000, not read from the catalogs, so the properties
 * check the catalogs too.
 *
 * Conventions the form → wire → form identity relies on (the form conversion's documented
 * behaviour): values are trimmed; the hidden alternative of each either/or choice is blank, and a
 * choice whose fields are all blank is on its default alternative; skill rows have a non-blank
 * description and question rows non-blank text; dates are real ISO dates; the default-N flags are
 * Y or N; candidate answer and skill response rows are sized by the requisition.
 */
import fc from 'fast-check';
import type { CandidateForm, SkillResponseRow } from '@/domain/candidate-form';
import { candidateFormDefaults } from '@/domain/candidate-form';
import type { RequisitionContext } from '@/domain/candidate-wire';
import type { QuestionRow, RequisitionForm, SkillRow } from '@/domain/requisition-form';
import { requisitionFormDefaults } from '@/domain/requisition-form';

type Arb<T> = fc.Arbitrary<T>;

/** Free text as typed: non-blank, trimmed; sometimes beyond ASCII. */
export const text: Arb<string> = fc
  .oneof(fc.string({ minLength: 1, maxLength: 24 }), fc.string({ unit: 'grapheme', maxLength: 12 }))
  .map((value) => value.trim())
  .filter((value) => value !== '');

const orBlank = <T extends string>(arb: Arb<T>): Arb<T | ''> =>
  fc.option(arb, { nil: '' as const });

const whole = (min = 0, max = 99_999): Arb<string> => fc.integer({ min, max }).map(String);

/** A DECIMAL as people write it: 42, 42.5, 42.50 (no bound but non-negative). */
const decimal: Arb<string> = fc
  .tuple(fc.nat(9_999), fc.constantFrom('', '.5', '.25', '.05', '.125', '.0'))
  .map(([units, fraction]) => `${units}${fraction}`);

/** hoursunitsperday: 0 to 24, up to 2 decimals (spec, "Limits"). */
const hoursPerDay: Arb<string> = fc.oneof(
  fc.integer({ min: 0, max: 24 }).map(String),
  fc.tuple(fc.integer({ min: 0, max: 23 }), fc.nat(9)).map(([h, d]) => `${h}.${d}`),
  fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.nat(99))
    .map(([h, d]) => `${h}.${String(d).padStart(2, '0')}`),
  fc.constant('24.00'),
);

/** A real date as a native date input gives it: ISO YYYY-MM-DD, leap days included. */
export const isoDate: Arb<string> = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .date({
        min: new Date('1990-01-01T00:00:00Z'),
        max: new Date('2099-12-31T00:00:00Z'),
        noInvalidDate: true,
      })
      .map((date) => date.toISOString().slice(0, 10)),
  },
  // Leap days are rare among random dates; give them a share of their own.
  { weight: 1, arbitrary: fc.constantFrom('2000-02-29', '2024-02-29', '2028-02-29') },
);

/** A validly formatted e-mail address. */
export const email: Arb<string> = fc
  .tuple(
    fc.stringMatching(/^[a-z0-9]{1,8}(?:[._+-][a-z0-9]{1,8}){0,2}$/),
    fc.stringMatching(/^[a-z0-9]{1,10}(?:-[a-z0-9]{1,10})?$/),
    fc.stringMatching(/^[a-z]{2,6}$/),
  )
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);

// The spec's allowed values.
const durationUnit = fc.constantFrom('1', '2', '3', '4');
const reqPriority = fc.constantFrom('1', '2', '3');
const citizenStatus = fc.constantFrom('1', '2', '3', '4', '5', '6');
const reqStatus = fc.constantFrom('4', '5', '6', '8', '9');
const maximumBillRate = fc.constantFrom('0', '1');
const requisitionEngagement = fc.constantFrom('1', '2', '3');
const candidateEngagement = fc.constantFrom('1', '2', '3', '4');
const requiredDesired = fc.constantFrom('1', '2', '3', '4', '5');
const skillResponse = fc.constantFrom('1', '2', '3', '4');
const yesNo = fc.constantFrom('Y', 'N');
const citizenships = [
  'US Citizen',
  'H1B',
  'K1',
  'Green card',
  'F1',
  'Authorized Canadian Worker',
  'Canadian Citizen',
  'Landed Immigrant',
  'Authorized UK Worker',
] as const;

/** Two optional values where, when both are given, the first is not after the second. */
function orderedPair(arb: Arb<string>, compare: (a: string, b: string) => number) {
  return fc
    .tuple(orBlank(arb), orBlank(arb))
    .map(([a, b]): [string, string] =>
      a !== '' && b !== '' && compare(a, b) > 0 ? [b, a] : [a, b],
    );
}

const skillRow: Arb<SkillRow> = fc.record({
  description: text,
  requireddesired: orBlank(requiredDesired),
  amountofexperience: orBlank(decimal),
  amountofexperiencetype: orBlank(durationUnit),
  expertiserating: orBlank(whole(1, 10)),
});
const questionRow: Arb<QuestionRow> = fc.record({ description: text });

/** A person: by ID (possibly blank, the default) or by both names (decision 000). */
function person(stem: string, required: boolean) {
  const byId = (required ? text : orBlank(text)).map((id) => ({
    [`${stem}By`]: 'id',
    [`${stem}id`]: id,
  }));
  const byName = fc.tuple(text, text).map(([first, last]) => ({
    [`${stem}By`]: 'name',
    [`${stem}firstname`]: first,
    [`${stem}lastname`]: last,
  }));
  return fc.oneof(byId, byName);
}

/** An accounting reference: by code (possibly blank, the default) or by a VMS ID. */
function reference(stem: string) {
  return fc.oneof(
    orBlank(text).map((code) => ({ [`${stem}By`]: 'code', [`${stem}refcode`]: code })),
    whole(1).map((id) => ({ [`${stem}By`]: 'id', [`${stem}id`]: id })),
  );
}

/** Req class: by ID (the default; blank allowed on Amend) or by full path. */
function reqClass(required: boolean) {
  return fc.oneof(
    (required ? whole(1) : orBlank(whole(1))).map((id) => ({ reqclassBy: 'id', reqclassid: id })),
    fc
      .array(
        text.map((level) => level.replaceAll('|', '/')),
        { minLength: 1, maxLength: 3 },
      )
      .map((levels) => ({ reqclassBy: 'path', fullreqpath: levels.join('|') })),
  );
}

/**
 * A valid requisition form. Insert fills everything decision 000 requires; Amend only
 * requesttype, orgid and clientinternalreq, every other field optional.
 */
export function requisitionFormArb(requesttype: 'I' | 'A'): Arb<RequisitionForm> {
  const insert = requesttype === 'I';
  const needed = (arb: Arb<string>) => (insert ? arb : orBlank(arb));
  const dates = orderedPair(isoDate, (a, b) => a.localeCompare(b));
  // billrangefrom is the Hourly High: not below billrangeto, the Hourly Low.
  const billRange = orderedPair(decimal, (a, b) => Number(a) - Number(b)).map(
    ([low, high]): [string, string] => [high, low],
  );

  const scalars = fc.record({
    orgid: whole(1),
    titlerole: needed(text),
    noofopenings: needed(whole(1, 500)),
    nonewsubmittalsafter: orBlank(isoDate),
    clientinternalreq: text,
    reqpriority: orBlank(reqPriority),
    citizenstatus: orBlank(citizenStatus),
    duration: orBlank(whole()),
    durationtype: orBlank(durationUnit),
    ratestructure: orBlank(whole()),
    ratesalarydescription: orBlank(text),
    maxpayrate: orBlank(decimal),
    payrateperiod: orBlank(whole(1, 9)),
    nottoexceedrate: orBlank(decimal),
    nottoexceedratecode: orBlank(whole(1, 9)),
    hoursunitsperday: needed(hoursPerDay),
    daysperweek: needed(whole(0, 7)),
    reqstatus: insert ? fc.constant('') : orBlank(reqStatus),
    maximumbillrate: orBlank(maximumBillRate),
    engagementtype: needed(requisitionEngagement),
    shortdescription: needed(text),
    completedescription: orBlank(text),
    behaviorcharacteristics: orBlank(text),
    altemail: orBlank(email),
    divbranch: orBlank(text),
  });
  const customFields = fc.array(orBlank(text), { minLength: 10, maxLength: 10 });

  return fc
    .record({
      scalars,
      dates,
      billRange,
      reqClass: reqClass(insert),
      owner: person('reqowner', insert),
      contact: person('clientcontact', false),
      reportsTo: person('reportsto', false),
      worklocation: reference('worklocation'),
      costcenter: reference('costcenter'),
      gl: reference('gl'),
      project: reference('project'),
      customFields,
      skills: fc.array(skillRow, { maxLength: 10 }),
      questions: fc.array(questionRow, { maxLength: 5 }),
    })
    .map((parts) => {
      const form: RequisitionForm = {
        ...requisitionFormDefaults(requesttype),
        ...parts.scalars,
        startdate: parts.dates[0],
        enddate: parts.dates[1],
        billrangefrom: parts.billRange[0],
        billrangeto: parts.billRange[1],
        skills: parts.skills,
        questions: parts.questions,
      };
      // Each either/or part carries its choice and the fields of that alternative only.
      Object.assign(
        form,
        parts.reqClass,
        parts.owner,
        parts.contact,
        parts.reportsTo,
        parts.worklocation,
        parts.costcenter,
        parts.gl,
        parts.project,
      );
      parts.customFields.forEach((value, index) => {
        form[`customfieldvalue${index + 1}` as 'customfieldvalue1'] = value;
      });
      return form;
    });
}

/** The target requisition's shape: 0–10 skills, 0–5 questions. */
export const requisitionContextArb: Arb<RequisitionContext> = fc.record({
  skillCount: fc.integer({ min: 0, max: 10 }),
  questionCount: fc.integer({ min: 0, max: 5 }),
});

const skillResponseRow: Arb<SkillResponseRow> = fc.record({
  response: orBlank(skillResponse),
  duration: orBlank(whole(0, 50)),
  units: orBlank(durationUnit),
  expertiserating: orBlank(whole(1, 10)),
});

/** A valid candidate form together with the requisition it answers, rows sized by it. */
export const candidateFormArb: Arb<{ context: RequisitionContext; form: CandidateForm }> =
  requisitionContextArb.chain((context) =>
    fc
      .record({
        scalars: fc.record({
          requirementid: whole(1),
          firstname: text,
          lastname: text,
          candemail: email,
          engagementtype: candidateEngagement,
          iscandcurrentlyemployedbyvendor: orBlank(yesNo),
          iscandcurrentlypaidbyvendor: orBlank(yesNo),
          availability: orBlank(text),
          vendorcandidateid: orBlank(text),
          summaryofqualifications: orBlank(text),
          iscandindependantcontractor: yesNo,
          wascandeveremployedbyclient: yesNo,
          billrate: orBlank(decimal),
          vendorrate: orBlank(decimal),
          payrate: orBlank(decimal),
          budgetrate: orBlank(decimal),
          candidatecomments: orBlank(text),
          candcustomfield1: orBlank(text),
          candcustomfield2: orBlank(text),
          candcustomfield3: orBlank(text),
          candcustomfield4: orBlank(text),
          candcustomfield5: orBlank(text),
        }),
        citizenship: fc.oneof(
          fc.constant({ candcitizenshipstatus: '', candcitizenshipexplain: '' }),
          fc.record({
            candcitizenshipstatus: fc.constantFrom(...citizenships),
            candcitizenshipexplain: orBlank(text),
          }),
          // Other needs an explanation (decision 000).
          text.map((why) => ({ candcitizenshipstatus: 'Other', candcitizenshipexplain: why })),
        ),
        answers: fc.array(
          orBlank(text).map((answer) => ({ answer })),
          {
            minLength: context.questionCount,
            maxLength: context.questionCount,
          },
        ),
        skillResponses: fc.array(skillResponseRow, {
          minLength: context.skillCount,
          maxLength: context.skillCount,
        }),
      })
      .map(({ scalars, citizenship, answers, skillResponses }) => ({
        context,
        form: {
          ...candidateFormDefaults(context),
          ...scalars,
          ...citizenship,
          answers,
          skillResponses,
        },
      })),
  );
