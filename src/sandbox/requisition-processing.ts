import type { FieldIssue } from '@/domain';
import { MAX_SKILLS, parseWireDate, skillKey, validateRequisitionItem } from '@/domain';
import { requisitionPeople } from '@/domain/requisition-catalog';
import type { ItemContext } from './item-context';
import { errorOutcome, postedString } from './item-context';
import type { ClientReference, UserProfile } from './reference';
import { accountingKinds } from './reference';
import type { PersonRole } from './reference-rules';
import {
  checkChoice,
  checkOrgId,
  describeChoices,
  isBlankPerson,
  issuesMessage,
  personFields,
  resolveAccounting,
  resolvePerson,
  resolveReqClass,
} from './reference-rules';
import type {
  RequisitionRecord,
  RequisitionRecordKey,
  StoredRequisition,
} from './requisition-record';
import {
  isQuestionKey,
  isSkillKey,
  recordFromWire,
  requisitionDateKeys,
  requisitionRecordKeys,
} from './requisition-record';
import type { ItemOutcome } from './store';

/**
 * One requisition item: the domain's local rules first (one source of truth, src/domain), then the
 * server-side rules against the client's reference data, then the effect. Runs inside the item's
 * transaction (worker.ts), so the effect and the result are written together.
 */
export function processRequisitionItem(payload: unknown, ctx: ItemContext): ItemOutcome {
  const local = validateRequisitionItem(payload, { dateFormat: ctx.dateFormat });
  if (!local.ok) {
    return errorOutcome(issuesMessage(local.issues), postedString(payload, 'clientinternalreq'));
  }
  // Values trimmed: the domain reads a value of only spaces as blank, and so does the sandbox.
  const given = recordFromWire(local.value);
  return local.value.requesttype === 'A' ? amend(given, ctx) : insert(given, ctx);
}

const personRoles: readonly PersonRole[] = requisitionPeople.map(({ stem }) => stem);
/** Fields resolved against reference data, or identifying the requisition: never copied as is. */
const resolvedKeys: ReadonlySet<string> = new Set([
  'orgid',
  'clientinternalreq',
  'reqclassid',
  'fullreqpath',
  ...personRoles.flatMap((role) => [`${role}id`, `${role}firstname`, `${role}lastname`]),
  ...accountingKinds.flatMap((kind) => [`${kind}refcode`, `${kind}id`]),
]);

/** DATE values are stored ISO; local validation has already refused impossible dates. */
function storedValue(key: RequisitionRecordKey, value: string, ctx: ItemContext): string {
  if (!requisitionDateKeys.has(key) || value === '') return value;
  return parseWireDate(value, ctx.dateFormat) ?? value;
}

/** The client's configured lists (blank values pass: there is nothing to check). */
function checkChoices(
  client: ClientReference,
  given: RequisitionRecord,
  issues: FieldIssue[],
): void {
  checkChoice(client, 'ratestructure', 'ratestructure', given.ratestructure, issues);
  checkChoice(client, 'payrateperiod', 'payrateperiod', given.payrateperiod, issues);
  checkChoice(
    client,
    'nottoexceedratecode',
    'nottoexceedratecode',
    given.nottoexceedratecode,
    issues,
  );
  for (let n = 1; n <= MAX_SKILLS; n += 1) {
    const key = skillKey('expertiserating', n);
    if (key !== 'requesttype') checkChoice(client, 'expertiserating', key, given[key], issues);
  }
}

function setPerson(record: RequisitionRecord, role: PersonRole, user: UserProfile): void {
  record[`${role}id`] = user.userId;
  record[`${role}firstname`] = user.firstName;
  record[`${role}lastname`] = user.lastName;
}

/** Rule 8: each reference given by code and/or id is stored with both. */
function applyAccounting(
  client: ClientReference,
  given: RequisitionRecord,
  record: RequisitionRecord,
  issues: FieldIssue[],
): void {
  for (const kind of accountingKinds) {
    const code = given[`${kind}refcode`];
    const id = given[`${kind}id`];
    if (code === '' && id === '') continue;
    const ref = resolveAccounting(client, kind, code, id, issues);
    if (!ref) continue;
    record[`${kind}refcode`] = ref.refCode;
    record[`${kind}id`] = String(ref.id);
  }
}

function insert(given: RequisitionRecord, ctx: ItemContext): ItemOutcome {
  const { client, store } = ctx;
  const cir = given.clientinternalreq;
  const issues: FieldIssue[] = [];
  checkOrgId(client, given.orgid, issues);
  const reqClass = resolveReqClass(client, given.reqclassid, given.fullreqpath, issues);
  const existing = store.requisitionByClientInternalReq(client.orgId, cir);
  if (existing) {
    issues.push({
      field: 'clientinternalreq',
      message:
        `'${cir}' is already used by requisition ${existing.reqId} of client org ${client.orgId}; ` +
        'use a reference no other requisition has, or send requesttype A to amend that one',
    });
  }
  const owner = resolvePerson(client, 'reqowner', personFields(given, 'reqowner'), issues);
  // Rules 4 and 5: with all their fields blank, contact and reports-to are the owner.
  const contactFields = personFields(given, 'clientcontact');
  const contact = isBlankPerson(contactFields)
    ? owner
    : resolvePerson(client, 'clientcontact', contactFields, issues);
  const reportsToFields = personFields(given, 'reportsto');
  const reportsTo = isBlankPerson(reportsToFields)
    ? owner
    : resolvePerson(client, 'reportsto', reportsToFields, issues);
  if (client.allowsExceedingHourlyHigh && given.nottoexceedratecode === '') {
    issues.push({
      field: 'nottoexceedratecode',
      message:
        `is required because client org ${client.orgId} lets new engagements exceed the hourly ` +
        `high; use one of ${describeChoices(client, 'nottoexceedratecode')}`,
    });
  }
  checkChoices(client, given, issues);
  const record: RequisitionRecord = { ...given };
  applyAccounting(client, given, record, issues);
  if (issues.length > 0 || !reqClass || !owner || !contact || !reportsTo) {
    return errorOutcome(issuesMessage(issues), cir);
  }

  for (const key of requisitionRecordKeys) record[key] = storedValue(key, record[key], ctx);
  record.orgid = String(Number(given.orgid));
  record.reqclassid = String(reqClass.id);
  record.fullreqpath = reqClass.fullPath;
  // Spec: reqpriority "blank on Insert defaults to 2"; every inserted requisition starts Open (4).
  record.reqpriority = given.reqpriority === '' ? '2' : given.reqpriority;
  record.reqstatus = '4';
  setPerson(record, 'reqowner', owner);
  setPerson(record, 'clientcontact', contact);
  setPerson(record, 'reportsto', reportsTo);
  const reqId = store.insertRequisition(client.orgId, Number(given.orgid), record, ctx.nowIso);
  return { status: 'Success', errorMessage: '', resultId: String(reqId), reference: cir };
}

/**
 * The spec: "the client internal requisition reference or the VMS Req ID may be entered in that
 * field". A client internal reference wins over a Req ID with the same digits.
 */
function findForAmend(value: string, ctx: ItemContext): StoredRequisition | undefined {
  const { client, store } = ctx;
  return (
    store.requisitionByClientInternalReq(client.orgId, value) ??
    (/^\d+$/.test(value) ? store.requisitionById(client.orgId, Number(value)) : undefined)
  );
}

function amend(given: RequisitionRecord, ctx: ItemContext): ItemOutcome {
  const { client } = ctx;
  const target = findForAmend(given.clientinternalreq, ctx);
  if (!target) {
    return errorOutcome(
      `clientinternalreq: no requisition of client org ${client.orgId} has the client internal ` +
        `reference or Req ID '${given.clientinternalreq}'; check the value, or send requesttype ` +
        'I to insert a new requisition',
      given.clientinternalreq,
    );
  }
  const issues: FieldIssue[] = [];
  if (String(Number(given.orgid)) !== String(target.orgId)) {
    issues.push({
      field: 'orgid',
      message:
        `requisition ${target.reqId} belongs to org ${target.orgId}, not ${given.orgid}; ` +
        `send orgid ${target.orgId} (an Amend does not move a requisition between orgs)`,
    });
  }
  const record: RequisitionRecord = { ...target.record };
  const changesSkills = requisitionRecordKeys.some((key) => isSkillKey(key) && given[key] !== '');
  const changesQuestions = requisitionRecordKeys.some(
    (key) => isQuestionKey(key) && given[key] !== '',
  );
  for (const key of requisitionRecordKeys) {
    if (resolvedKeys.has(key)) continue;
    // Skill rows (and question rows) are replaced as a set when any of their fields is given,
    // so a row left blank in the Amend is removed; otherwise blank means "leave unchanged".
    const replace = isSkillKey(key)
      ? changesSkills
      : isQuestionKey(key)
        ? changesQuestions
        : given[key] !== '';
    if (replace) record[key] = storedValue(key, given[key], ctx);
  }

  if (given.reqclassid !== '' || given.fullreqpath !== '') {
    const reqClass = resolveReqClass(client, given.reqclassid, given.fullreqpath, issues);
    if (reqClass) {
      record.reqclassid = String(reqClass.id);
      record.fullreqpath = reqClass.fullPath;
    }
  }
  const contactFields = personFields(given, 'clientcontact');
  const reportsToFields = personFields(given, 'reportsto');
  for (const [role, fields] of [
    ['clientcontact', contactFields],
    ['reportsto', reportsToFields],
  ] as const) {
    if (isBlankPerson(fields)) continue;
    const user = resolvePerson(client, role, fields, issues);
    if (user) setPerson(record, role, user);
  }
  // Rule 6: the owner fields change the owner only when the contact and reports-to fields are
  // all blank; otherwise they are ignored, not checked (docs/sandbox.md).
  const ownerFields = personFields(given, 'reqowner');
  if (
    !isBlankPerson(ownerFields) &&
    isBlankPerson(contactFields) &&
    isBlankPerson(reportsToFields)
  ) {
    const owner = resolvePerson(client, 'reqowner', ownerFields, issues);
    if (owner) setPerson(record, 'reqowner', owner);
  }
  applyAccounting(client, given, record, issues);
  checkChoices(client, given, issues);
  checkAmendedWhole(record, given, target, issues);

  if (issues.length > 0) {
    return errorOutcome(issuesMessage(issues), target.clientInternalReq, String(target.reqId));
  }
  ctx.store.updateRequisition(target.reqId, record, ctx.nowIso);
  return {
    status: 'Success',
    errorMessage: '',
    resultId: String(target.reqId),
    reference: target.clientInternalReq,
  };
}

/**
 * An Amend may give one side of a pair whose other side is stored; local validation cannot see the
 * stored side, so the amended requisition is checked as a whole here.
 */
function checkAmendedWhole(
  record: RequisitionRecord,
  given: RequisitionRecord,
  target: StoredRequisition,
  issues: FieldIssue[],
): void {
  const high = record.billrangefrom;
  const low = record.billrangeto;
  if (high !== '' && low !== '' && Number(high) < Number(low)) {
    issues.push({
      field: given.billrangefrom !== '' ? 'billrangefrom' : 'billrangeto',
      message:
        `the hourly high (billrangefrom ${high}) would be below the hourly low (billrangeto ` +
        `${low}) of requisition ${target.reqId}; send both so that the high is at least the low`,
    });
  }
  if (record.startdate !== '' && record.enddate !== '' && record.enddate < record.startdate) {
    issues.push({
      field: given.enddate !== '' ? 'enddate' : 'startdate',
      message:
        `the end date would be before the start date of requisition ${target.reqId}; send both ` +
        'dates so that the end is not before the start',
    });
  }
}
