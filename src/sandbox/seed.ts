import type { SandboxDatabase } from './database';
import { sandboxDemo } from './demo';
import type { ApiAccount, ClientReference, VendorOrg } from './reference';
import { accountingKinds, choiceListNames } from './reference';
import { seedRequisitions } from './seed-requisitions';

/**
 * The sandbox's deterministic seed. docs/sandbox.md has the same data as tables a person can fill
 * a form from; keep the two in agreement (seed.test.ts checks the identifiers it quotes).
 */

export const seedVendors: VendorOrg[] = [
  { orgId: sandboxDemo.vendorOrgId, name: 'Demo Staffing Partners' },
  { orgId: 9002, name: 'Second Vendor Staffing' },
];

/**
 * The demo key serves both client orgs. The second vendor's key serves only 1001: it exists so
 * that "a batch of another vendor" and "a client org this key may not serve" can be tried.
 */
export const seedAccounts: ApiAccount[] = [
  {
    apiKey: sandboxDemo.apiKey,
    secret: sandboxDemo.apiSecret,
    vendorOrgId: sandboxDemo.vendorOrgId,
    clientOrgIds: [...sandboxDemo.clientOrgIds],
  },
  {
    apiKey: 'sandbox-second-vendor-key-5d2c8a1b',
    secret: 'sandbox-second-vendor-secret-9e7f3b2a',
    vendorOrgId: 9002,
    clientOrgIds: [1001],
  },
];

const northwind: ClientReference = {
  orgId: 1001,
  name: sandboxDemo.clientOrgNames[1001],
  subOrgs: [
    { orgId: 1011, name: 'Northwind Health – East Region' },
    { orgId: 1012, name: 'Northwind Health – West Region' },
  ],
  allowsExceedingHourlyHigh: false,
  reqClasses: [
    { id: 101, fullPath: 'IT|Software|Developer' },
    { id: 102, fullPath: 'IT|Software|QA Analyst' },
    { id: 103, fullPath: 'IT|Infrastructure|Network Engineer' },
    { id: 104, fullPath: 'Clinical|Nursing|Registered Nurse' },
    { id: 105, fullPath: 'Finance|Accounting|Staff Accountant' },
  ],
  users: [
    { userId: 'mreyes', clientInternalId: 'NW-E-0001', firstName: 'Maria', lastName: 'Reyes' },
    { userId: 'dchen', clientInternalId: 'NW-E-0002', firstName: 'David', lastName: 'Chen' },
    { userId: 'pokafor', clientInternalId: 'NW-E-0003', firstName: 'Patience', lastName: 'Okafor' },
    {
      userId: 'jlindqvist',
      clientInternalId: 'NW-E-0004',
      firstName: 'Johan',
      lastName: 'Lindqvist',
    },
    // Two profiles with one name: naming "Alex Morgan" is ambiguous, an id is needed.
    { userId: 'amorgan', clientInternalId: 'NW-E-0005', firstName: 'Alex', lastName: 'Morgan' },
    { userId: 'amorgan2', clientInternalId: 'NW-E-0006', firstName: 'Alex', lastName: 'Morgan' },
  ],
  accounting: {
    worklocation: [
      { id: 301, refCode: 'WL-BOS', name: 'Boston headquarters' },
      { id: 302, refCode: 'WL-NYC', name: 'New York office' },
      { id: 303, refCode: 'WL-REMOTE', name: 'Remote' },
    ],
    costcenter: [
      { id: 401, refCode: 'CC-IT-100', name: 'IT applications' },
      { id: 402, refCode: 'CC-CLN-200', name: 'Clinical operations' },
      { id: 403, refCode: 'CC-FIN-300', name: 'Finance' },
    ],
    gl: [
      { id: 501, refCode: 'GL-6100', name: 'Contract labor' },
      { id: 502, refCode: 'GL-6200', name: 'Consulting services' },
    ],
    project: [
      { id: 601, refCode: 'PRJ-EHR', name: 'Electronic health record migration' },
      { id: 602, refCode: 'PRJ-CLOUD', name: 'Cloud move' },
    ],
  },
  choices: {
    ratestructure: [
      { value: '1', label: 'Hourly' },
      { value: '2', label: 'Daily' },
    ],
    payrateperiod: [
      { value: '1', label: 'Hourly' },
      { value: '2', label: 'Weekly' },
      { value: '3', label: 'Monthly' },
    ],
    // Northwind does not let engagements exceed the hourly high, so it has no codes.
    nottoexceedratecode: [],
    expertiserating: [
      { value: '1', label: 'Beginner' },
      { value: '2', label: 'Intermediate' },
      { value: '3', label: 'Advanced' },
      { value: '4', label: 'Expert' },
    ],
  },
};

const contoso: ClientReference = {
  orgId: 1002,
  name: sandboxDemo.clientOrgNames[1002],
  subOrgs: [],
  allowsExceedingHourlyHigh: true,
  reqClasses: [
    { id: 201, fullPath: 'Engineering|Mechanical|Design Engineer' },
    { id: 202, fullPath: 'Operations|Warehouse|Forklift Operator' },
    // The same path as Northwind's 101 under another id: a path is resolved within the org.
    { id: 203, fullPath: 'IT|Software|Developer' },
  ],
  users: [
    { userId: 'tbrooks', clientInternalId: 'CM-1001', firstName: 'Tessa', lastName: 'Brooks' },
    { userId: 'rsingh', clientInternalId: 'CM-1002', firstName: 'Raj', lastName: 'Singh' },
    { userId: 'lnguyen', clientInternalId: 'CM-1003', firstName: 'Linh', lastName: 'Nguyen' },
  ],
  accounting: {
    worklocation: [
      { id: 311, refCode: 'WL-DET', name: 'Detroit plant' },
      { id: 312, refCode: 'WL-TOL', name: 'Toledo warehouse' },
    ],
    costcenter: [
      { id: 411, refCode: 'CC-ENG-10', name: 'Engineering' },
      { id: 412, refCode: 'CC-OPS-20', name: 'Operations' },
    ],
    gl: [{ id: 511, refCode: 'GL-7100', name: 'Temporary labor' }],
    project: [{ id: 611, refCode: 'PRJ-LINE4', name: 'Line 4 retooling' }],
  },
  choices: {
    ratestructure: [
      { value: '1', label: 'Hourly' },
      { value: '3', label: 'Hourly with overtime' },
    ],
    payrateperiod: [
      { value: '1', label: 'Hourly' },
      { value: '4', label: 'Annual' },
    ],
    nottoexceedratecode: [
      { value: '1', label: 'Approved by hiring manager' },
      { value: '2', label: 'Critical skill premium' },
      { value: '3', label: 'Overtime coverage' },
    ],
    expertiserating: [
      { value: '10', label: 'Trainee' },
      { value: '20', label: 'Qualified' },
      { value: '30', label: 'Lead' },
    ],
  },
};

export const seedClients: ClientReference[] = [northwind, contoso];

export function seedDatabase(db: SandboxDatabase): void {
  const vendor = db.prepare('INSERT INTO vendor_orgs (org_id, name) VALUES (?, ?)');
  for (const v of seedVendors) vendor.run(v.orgId, v.name);

  const org = db.prepare(
    `INSERT INTO client_orgs (org_id, name, parent_org_id, allows_exceeding_hourly_high)
     VALUES (?, ?, ?, ?)`,
  );
  const reqClass = db.prepare(
    'INSERT INTO req_classes (id, client_org_id, full_path) VALUES (?, ?, ?)',
  );
  const user = db.prepare(
    `INSERT INTO users (client_org_id, user_id, client_internal_id, first_name, last_name)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const accounting = db.prepare(
    'INSERT INTO accounting_refs (kind, id, client_org_id, ref_code, name) VALUES (?, ?, ?, ?, ?)',
  );
  const choice = db.prepare(
    'INSERT INTO choice_lists (client_org_id, list, value, label, position) VALUES (?, ?, ?, ?, ?)',
  );
  for (const client of seedClients) {
    org.run(client.orgId, client.name, null, client.allowsExceedingHourlyHigh ? 1 : 0);
    for (const sub of client.subOrgs) org.run(sub.orgId, sub.name, client.orgId, 0);
    for (const c of client.reqClasses) reqClass.run(c.id, client.orgId, c.fullPath);
    for (const u of client.users) {
      user.run(client.orgId, u.userId, u.clientInternalId, u.firstName, u.lastName);
    }
    for (const kind of accountingKinds) {
      for (const ref of client.accounting[kind]) {
        accounting.run(kind, ref.id, client.orgId, ref.refCode, ref.name);
      }
    }
    for (const list of choiceListNames) {
      client.choices[list].forEach((entry, position) =>
        choice.run(client.orgId, list, entry.value, entry.label, position),
      );
    }
  }

  const key = db.prepare('INSERT INTO api_keys (api_key, secret, vendor_org_id) VALUES (?, ?, ?)');
  const keyClient = db.prepare(
    'INSERT INTO api_key_clients (api_key, client_org_id) VALUES (?, ?)',
  );
  for (const account of seedAccounts) {
    key.run(account.apiKey, account.secret, account.vendorOrgId);
    for (const clientOrgId of account.clientOrgIds) keyClient.run(account.apiKey, clientOrgId);
  }

  const requisition = db.prepare(
    `INSERT INTO requisitions
       (req_id, client_org_id, org_id, client_internal_req, created_at, updated_at, record)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const seeded of seedRequisitions(seedClients)) {
    requisition.run(
      seeded.reqId,
      seeded.clientOrgId,
      seeded.orgId,
      seeded.clientInternalReq,
      seeded.createdAt,
      seeded.updatedAt,
      JSON.stringify(seeded.record),
    );
  }
}
