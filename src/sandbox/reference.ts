import { requisitionReferences } from '@/domain/requisition-catalog';
import type { SandboxDatabase } from './database';

/**
 * The sandbox's reference data: who may call, the client orgs and everything the server-side rules
 * check requisitions against. Seeded once (seed.ts), read-only afterwards, so it is loaded into
 * memory at start-up and every rule reads it without a query.
 */

/** The accounting references (spec rule 8), as the domain defines them. */
export const accountingKinds = requisitionReferences.map(({ stem }) => stem);
export type AccountingKind = (typeof requisitionReferences)[number]['stem'];

/** How messages name each: "work location", "GL". */
export const accountingKindNames = Object.fromEntries(
  requisitionReferences.map(({ stem, label }) => [
    stem,
    label === 'GL' ? label : label.toLowerCase(),
  ]),
) as Record<AccountingKind, string>; // one entry per reference

export const choiceListNames = [
  'ratestructure',
  'payrateperiod',
  'nottoexceedratecode',
  'expertiserating',
] as const;
export type ChoiceListName = (typeof choiceListNames)[number];

export interface ReqClass {
  id: number;
  fullPath: string;
}

export interface UserProfile {
  userId: string;
  clientInternalId: string;
  firstName: string;
  lastName: string;
}

export interface AccountingRef {
  id: number;
  refCode: string;
  name: string;
}

export interface Choice {
  value: string;
  label: string;
}

export interface SubOrg {
  orgId: number;
  name: string;
}

export interface ClientReference {
  orgId: number;
  name: string;
  subOrgs: SubOrg[];
  /** The application setting that lets new engagements exceed the hourly high (spec: nottoexceedratecode). */
  allowsExceedingHourlyHigh: boolean;
  reqClasses: ReqClass[];
  users: UserProfile[];
  accounting: Record<AccountingKind, AccountingRef[]>;
  choices: Record<ChoiceListName, Choice[]>;
}

export interface VendorOrg {
  orgId: number;
  name: string;
}

export interface ApiAccount {
  apiKey: string;
  secret: string;
  vendorOrgId: number;
  clientOrgIds: number[];
}

export interface ReferenceData {
  accounts: Map<string, ApiAccount>;
  vendors: Map<number, VendorOrg>;
  clients: Map<number, ClientReference>;
}

/** Every org id a requisition of this client may carry in `orgid`. */
export function orgIdsOf(client: ClientReference): number[] {
  return [client.orgId, ...client.subOrgs.map((org) => org.orgId)];
}

export function loadReference(db: SandboxDatabase): ReferenceData {
  const clients = new Map<number, ClientReference>();
  const orgRows = db
    .prepare<[], { org_id: number; name: string; parent_org_id: number | null; allows: number }>(
      'SELECT org_id, name, parent_org_id, allows_exceeding_hourly_high AS allows FROM client_orgs ORDER BY org_id',
    )
    .all();
  for (const row of orgRows.filter((org) => org.parent_org_id === null)) {
    clients.set(row.org_id, {
      orgId: row.org_id,
      name: row.name,
      subOrgs: orgRows
        .filter((org) => org.parent_org_id === row.org_id)
        .map((org) => ({ orgId: org.org_id, name: org.name })),
      allowsExceedingHourlyHigh: row.allows === 1,
      reqClasses: db
        .prepare<[number], ReqClass>(
          'SELECT id, full_path AS fullPath FROM req_classes WHERE client_org_id = ? ORDER BY id',
        )
        .all(row.org_id),
      users: db
        .prepare<[number], UserProfile>(
          `SELECT user_id AS userId, client_internal_id AS clientInternalId,
                  first_name AS firstName, last_name AS lastName
           FROM users WHERE client_org_id = ? ORDER BY rowid`,
        )
        .all(row.org_id),
      accounting: Object.fromEntries(
        accountingKinds.map((kind) => [
          kind,
          db
            .prepare<[string, number], AccountingRef>(
              `SELECT id, ref_code AS refCode, name FROM accounting_refs
               WHERE kind = ? AND client_org_id = ? ORDER BY id`,
            )
            .all(kind, row.org_id),
        ]),
      ) as Record<AccountingKind, AccountingRef[]>,
      choices: Object.fromEntries(
        choiceListNames.map((list) => [
          list,
          db
            .prepare<[string, number], Choice>(
              `SELECT value, label FROM choice_lists
               WHERE list = ? AND client_org_id = ? ORDER BY position`,
            )
            .all(list, row.org_id),
        ]),
      ) as Record<ChoiceListName, Choice[]>,
    });
  }

  const vendors = new Map(
    db
      .prepare<[], VendorOrg>('SELECT org_id AS orgId, name FROM vendor_orgs ORDER BY org_id')
      .all()
      .map((vendor) => [vendor.orgId, vendor]),
  );

  const accounts = new Map<string, ApiAccount>();
  const keyRows = db
    .prepare<[], { apiKey: string; secret: string; vendorOrgId: number }>(
      'SELECT api_key AS apiKey, secret, vendor_org_id AS vendorOrgId FROM api_keys',
    )
    .all();
  for (const key of keyRows) {
    const clientOrgIds = db
      .prepare<[string], { id: number }>(
        'SELECT client_org_id AS id FROM api_key_clients WHERE api_key = ? ORDER BY client_org_id',
      )
      .all(key.apiKey)
      .map((row) => row.id);
    accounts.set(key.apiKey, { ...key, clientOrgIds });
  }

  return { accounts, vendors, clients };
}
