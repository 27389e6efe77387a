import type { FieldIssue } from '@/domain';
import type { requisitionPeople } from '@/domain/requisition-catalog';
import type {
  AccountingKind,
  AccountingRef,
  ChoiceListName,
  ClientReference,
  ReqClass,
  UserProfile,
} from './reference';
import { accountingKindNames, orgIdsOf } from './reference';

/**
 * Server-side checks of a payload against the client's reference data (docs/sandbox.md,
 * "Server-side rules"). Each check pushes issues naming the wire field, saying why and,
 * where the list is short, which values would do; and returns the resolved entry when it has one.
 */

const listFormat = new Intl.ListFormat('en', { style: 'long', type: 'disjunction' });

function quote(value: string): string {
  return `'${value}'`;
}

export function checkOrgId(client: ClientReference, orgid: string, issues: FieldIssue[]): void {
  const allowed = orgIdsOf(client);
  if (!allowed.includes(Number(orgid))) {
    issues.push({
      field: 'orgid',
      message:
        `${orgid} is not client org ${client.orgId} or one of its sub-orgs; ` +
        `use ${listFormat.format(allowed.map(String))}`,
    });
  }
}

/** Rule 1: reqclassid and/or fullreqpath name one req class of the org. */
export function resolveReqClass(
  client: ClientReference,
  reqclassid: string,
  fullreqpath: string,
  issues: FieldIssue[],
): ReqClass | undefined {
  const choices = client.reqClasses.map((c) => `${c.id} (${c.fullPath})`).join(', ');
  const byId =
    reqclassid === '' ? undefined : client.reqClasses.find((c) => String(c.id) === reqclassid);
  const byPath =
    fullreqpath === '' ? undefined : client.reqClasses.find((c) => c.fullPath === fullreqpath);
  if (reqclassid !== '' && !byId) {
    issues.push({
      field: 'reqclassid',
      message: `${reqclassid} is not a req class of org ${client.orgId}; use one of ${choices}`,
    });
  }
  if (fullreqpath !== '' && !byPath) {
    issues.push({
      field: 'fullreqpath',
      message:
        `${quote(fullreqpath)} is not the full path of a req class of org ${client.orgId} ` +
        `(levels separated by |, exact spelling); use one of ${choices}`,
    });
  }
  if (byId && byPath && byId.id !== byPath.id) {
    issues.push({
      field: 'fullreqpath',
      message:
        `${quote(fullreqpath)} is req class ${byPath.id}, but reqclassid is ${byId.id} ` +
        `(${byId.fullPath}); give one of the two, or make them name the same req class`,
    });
    return undefined;
  }
  return byId ?? byPath;
}

export type PersonRole = (typeof requisitionPeople)[number]['stem'];

const roleNames: Record<PersonRole, string> = {
  clientcontact: 'client contact',
  reqowner: 'requisition owner',
  reportsto: 'reports-to user',
};

export interface PersonFields {
  id: string;
  firstName: string;
  lastName: string;
}

export function personFields(
  record: Readonly<Record<string, string>>,
  role: PersonRole,
): PersonFields {
  return {
    id: record[`${role}id`] ?? '',
    firstName: record[`${role}firstname`] ?? '',
    lastName: record[`${role}lastname`] ?? '',
  };
}

export function isBlankPerson(person: PersonFields): boolean {
  return person.id === '' && person.firstName === '' && person.lastName === '';
}

/**
 * Rule 3: a person is identified by the id field (user ID or client internal ID) or by first and
 * last name, each equal to the profile exactly (case included). Names shared by two profiles are
 * ambiguous; both given must name the same user.
 */
export function resolvePerson(
  client: ClientReference,
  role: PersonRole,
  person: PersonFields,
  issues: FieldIssue[],
): UserProfile | undefined {
  const what = roleNames[role];
  let byId: UserProfile | undefined;
  if (person.id !== '') {
    byId = client.users.find((u) => u.userId === person.id || u.clientInternalId === person.id);
    if (!byId) {
      issues.push({
        field: `${role}id`,
        message:
          `${quote(person.id)} is not the user ID or client internal ID of any user of client org ` +
          `${client.orgId}; the ${what} must match a user profile exactly (capitals included)`,
      });
      return undefined;
    }
  }
  if (person.firstName === '' && person.lastName === '') return byId;

  if (byId) {
    for (const [part, given, actual] of [
      ['firstname', person.firstName, byId.firstName],
      ['lastname', person.lastName, byId.lastName],
    ] as const) {
      if (given !== '' && given !== actual) {
        issues.push({
          field: `${role}${part}`,
          message:
            `${quote(given)} does not match ${role}id ${quote(person.id)}, whose profile is ` +
            `${byId.firstName} ${byId.lastName}; give the id or the names, or make them agree`,
        });
        return undefined;
      }
    }
    return byId;
  }

  if (person.firstName === '' || person.lastName === '') {
    const missing = person.firstName === '' ? 'firstname' : 'lastname';
    issues.push({
      field: `${role}${missing}`,
      message: `is blank; name the ${what} with both first and last name, or give ${role}id`,
    });
    return undefined;
  }
  const named = client.users.filter(
    (u) => u.firstName === person.firstName && u.lastName === person.lastName,
  );
  const fullName = `${person.firstName} ${person.lastName}`;
  if (named.length === 0) {
    issues.push({
      field: `${role}firstname`,
      message:
        `no user of client org ${client.orgId} is named ${quote(fullName)}; the ${what}'s first ` +
        `and last name must match the user profile exactly (capitals included), or give ${role}id`,
    });
    return undefined;
  }
  if (named.length > 1) {
    issues.push({
      field: `${role}firstname`,
      message:
        `${named.length} users of client org ${client.orgId} are named ${quote(fullName)}; ` +
        `identify the ${what} by ${role}id (${listFormat.format(named.map((u) => u.userId))})`,
    });
    return undefined;
  }
  return named[0];
}

/** Rule 8: location, cost center, GL and project by reference code or VMS id, in the org. */
export function resolveAccounting(
  client: ClientReference,
  kind: AccountingKind,
  refCode: string,
  id: string,
  issues: FieldIssue[],
): AccountingRef | undefined {
  const refs = client.accounting[kind];
  const name = accountingKindNames[kind];
  const choices = refs.map((r) => `${r.id} (${r.refCode})`).join(', ');
  const byCode = refCode === '' ? undefined : refs.find((r) => r.refCode === refCode);
  const byId = id === '' ? undefined : refs.find((r) => String(r.id) === id);
  if (refCode !== '' && !byCode) {
    issues.push({
      field: `${kind}refcode`,
      message: `${quote(refCode)} is not a ${name} reference code of client org ${client.orgId}; use one of ${choices}`,
    });
  }
  if (id !== '' && !byId) {
    issues.push({
      field: `${kind}id`,
      message: `${id} is not a ${name} id of client org ${client.orgId}; use one of ${choices}`,
    });
  }
  if (byCode && byId && byCode.id !== byId.id) {
    issues.push({
      field: `${kind}id`,
      message:
        `${id} is ${name} ${byId.refCode}, but ${kind}refcode is ${quote(refCode)}; ` +
        `give one of the two, or make them name the same ${name}`,
    });
    return undefined;
  }
  return byCode ?? byId;
}

const choiceNames: Record<ChoiceListName, { one: string; many: string }> = {
  ratestructure: { one: 'a rate structure', many: 'rate structures' },
  payrateperiod: { one: 'a pay rate period', many: 'pay rate periods' },
  nottoexceedratecode: { one: 'a not-to-exceed rate code', many: 'not-to-exceed rate codes' },
  expertiserating: { one: 'an expertise rating', many: 'expertise ratings' },
};

export function describeChoices(client: ClientReference, list: ChoiceListName): string {
  return client.choices[list].map((c) => `${c.value} (${c.label})`).join(', ');
}

/** A value that must be one of the client's configured list (rate structures, ratings…). */
export function checkChoice(
  client: ClientReference,
  list: ChoiceListName,
  field: string,
  value: string,
  issues: FieldIssue[],
): void {
  if (value === '' || client.choices[list].some((c) => c.value === value)) return;
  const choices = client.choices[list];
  issues.push({
    field,
    message:
      choices.length === 0
        ? `client org ${client.orgId} has no ${choiceNames[list].many}; leave ${field} blank`
        : `${value} is not ${choiceNames[list].one} of client org ${client.orgId}; use one of ${describeChoices(client, list)}`,
  });
}

/** The issues as one ErrorMessage: `field: message; field: message`. */
export function issuesMessage(issues: readonly FieldIssue[]): string {
  return issues
    .map((issue) => (issue.field ? `${issue.field}: ${issue.message}` : issue.message))
    .join('; ');
}
