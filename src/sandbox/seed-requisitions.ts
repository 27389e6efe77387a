// Data: the sandbox's seed requisitions, about twenty fixed records listed on first start.
import type { ClientReference } from './reference';
import type {
  RequisitionRecord,
  RequisitionRecordKey,
  StoredRequisition,
} from './requisition-record';
import { blankRequisitionRecord } from './requisition-record';

/**
 * About twenty existing requisitions, so the portal has something real to list on first start and
 * candidates have somewhere to go. Ids and references are fixed (tests and docs/sandbox.md quote
 * them); created/updated times are fixed too, so the GET /requisitions filters can be tried.
 */

type Skill = readonly [
  description: string,
  requiredDesired: string,
  amount: string,
  amountType: string,
  expertise: string,
];

interface SeedSpec {
  reqId: number;
  clientOrgId: number;
  orgId: number;
  clientInternalReq: string;
  status: '4' | '5' | '6' | '8' | '9';
  reqClassId: number;
  ownerUserId: string;
  contactUserId?: string;
  title: string;
  createdAt: string;
  updatedAt?: string;
  skills?: readonly Skill[];
  questions?: readonly string[];
  fields?: Partial<Record<RequisitionRecordKey, string>>;
}

const longTerm = {
  startdate: '2027-01-11',
  enddate: '2027-12-17',
  nonewsubmittalsafter: '2030-12-31',
  duration: '12',
  durationtype: '3',
} as const;

const specs: readonly SeedSpec[] = [
  {
    reqId: 40001,
    clientOrgId: 1001,
    orgId: 1001,
    clientInternalReq: 'NW-REQ-0001',
    status: '4',
    reqClassId: 101,
    ownerUserId: 'mreyes',
    contactUserId: 'dchen',
    title: 'Senior Java Developer',
    createdAt: '2026-01-05T09:00:00Z',
    updatedAt: '2026-03-02T14:30:00Z',
    skills: [
      ['Java 17 and Spring Boot', '1', '5', '4', '3'],
      ['PostgreSQL', '2', '3', '4', '2'],
      ['Kubernetes', '3', '1', '4', ''],
    ],
    questions: ['Are you able to work on site in Boston two days a week?', 'Notice period?'],
    fields: {
      ...longTerm,
      noofopenings: '2',
      billrangefrom: '95.00',
      billrangeto: '75.00',
      maximumbillrate: '1',
      ratestructure: '1',
      payrateperiod: '1',
      maxpayrate: '70.00',
      worklocationid: '301',
      worklocationrefcode: 'WL-BOS',
      costcenterid: '401',
      costcenterrefcode: 'CC-IT-100',
      projectid: '601',
      projectrefcode: 'PRJ-EHR',
    },
  },
  {
    reqId: 40002,
    clientOrgId: 1001,
    orgId: 1011,
    clientInternalReq: 'NW-REQ-0002',
    status: '4',
    reqClassId: 102,
    ownerUserId: 'dchen',
    title: 'QA Analyst',
    createdAt: '2026-02-10T10:15:00Z',
    skills: [
      ['Test automation (Playwright)', '1', '2', '4', '2'],
      ['Accessibility testing', '3', '1', '4', '1'],
      ['SQL', '4', '6', '3', ''],
    ],
    questions: ['Which test frameworks have you used?', 'Earliest start date?'],
    fields: {
      ...longTerm,
      billrangefrom: '65.00',
      billrangeto: '50.00',
      maximumbillrate: '0',
      worklocationid: '302',
      worklocationrefcode: 'WL-NYC',
    },
  },
  {
    reqId: 40003,
    clientOrgId: 1001,
    orgId: 1012,
    clientInternalReq: 'NW-REQ-0003',
    status: '5',
    reqClassId: 103,
    ownerUserId: 'pokafor',
    title: 'Network Engineer',
    createdAt: '2026-03-03T08:45:00Z',
    updatedAt: '2026-04-20T16:00:00Z',
    skills: [
      ['Cisco routing and switching', '1', '4', '4', '3'],
      ['Firewall administration', '2', '2', '4', '2'],
    ],
    questions: ['Do you hold a CCNP?'],
    fields: { ...longTerm, billrangefrom: '88.00', billrangeto: '70.00' },
  },
  {
    reqId: 40004,
    clientOrgId: 1001,
    orgId: 1011,
    clientInternalReq: 'NW-REQ-0004',
    status: '6',
    reqClassId: 104,
    ownerUserId: 'pokafor',
    title: 'Registered Nurse, night shift',
    createdAt: '2026-03-15T07:00:00Z',
    updatedAt: '2026-05-01T12:00:00Z',
    skills: [['Acute care', '1', '2', '4', '3']],
    questions: ['Active state licence number?'],
    fields: { ...longTerm, noofopenings: '3', hoursunitsperday: '12', daysperweek: '3' },
  },
  {
    reqId: 40005,
    clientOrgId: 1001,
    orgId: 1001,
    clientInternalReq: 'NW-REQ-0005',
    status: '8',
    reqClassId: 105,
    ownerUserId: 'jlindqvist',
    title: 'Staff Accountant',
    createdAt: '2026-04-02T11:20:00Z',
    updatedAt: '2026-06-12T09:10:00Z',
    skills: [['Month-end close', '1', '3', '4', '2']],
    questions: ['CPA?'],
    fields: { ...longTerm, costcenterid: '403', costcenterrefcode: 'CC-FIN-300' },
  },
  {
    reqId: 40006,
    clientOrgId: 1001,
    orgId: 1001,
    clientInternalReq: 'NW-REQ-0006',
    status: '9',
    reqClassId: 101,
    ownerUserId: 'amorgan',
    title: 'Front-end Developer (on hold)',
    createdAt: '2026-04-18T13:00:00Z',
    updatedAt: '2026-07-07T10:00:00Z',
    skills: [
      ['React', '1', '3', '4', '3'],
      ['TypeScript', '1', '3', '4', '3'],
    ],
    questions: ['Portfolio link?'],
    fields: { ...longTerm },
  },
  {
    reqId: 40007,
    clientOrgId: 1001,
    orgId: 1012,
    clientInternalReq: 'NW-REQ-0007',
    status: '4',
    reqClassId: 102,
    ownerUserId: 'dchen',
    title: 'QA Analyst, summer cover',
    createdAt: '2026-05-04T09:30:00Z',
    skills: [['Manual regression testing', '1', '1', '4', '2']],
    questions: ['Available for the whole summer?'],
    fields: {
      startdate: '2026-06-01',
      enddate: '2026-08-28',
      nonewsubmittalsafter: '2026-06-30',
    },
  },
  {
    reqId: 40008,
    clientOrgId: 1001,
    orgId: 1001,
    clientInternalReq: 'NW-REQ-0008',
    status: '4',
    reqClassId: 103,
    ownerUserId: 'mreyes',
    title: 'Help Desk Technician',
    createdAt: '2026-06-22T15:45:00Z',
    fields: { ...longTerm, engagementtype: '2', billrangefrom: '45.00', billrangeto: '35.00' },
  },
  {
    reqId: 40009,
    clientOrgId: 1001,
    orgId: 1011,
    clientInternalReq: 'NW-REQ-0009',
    status: '5',
    reqClassId: 101,
    ownerUserId: 'jlindqvist',
    title: 'Data Engineer',
    createdAt: '2026-07-13T10:00:00Z',
    updatedAt: '2026-09-01T08:00:00Z',
    skills: [
      ['Python', '1', '4', '4', '3'],
      ['Apache Spark', '2', '2', '4', '2'],
      ['dbt', '3', '1', '4', '1'],
      ['Airflow', '4', '1', '4', ''],
    ],
    questions: ['Largest data volume you have handled?', 'Cloud platform?', 'Visa status?'],
    fields: { ...longTerm, billrangefrom: '110.00', billrangeto: '90.00', maximumbillrate: '1' },
  },
  {
    reqId: 40010,
    clientOrgId: 1001,
    orgId: 1001,
    clientInternalReq: 'NW-REQ-0010',
    status: '6',
    reqClassId: 105,
    ownerUserId: 'mreyes',
    title: 'Payroll Specialist',
    createdAt: '2026-08-03T12:00:00Z',
    updatedAt: '2026-09-30T17:00:00Z',
    skills: [['Payroll systems', '1', '3', '4', '2']],
    fields: { ...longTerm, engagementtype: '3' },
  },
  {
    reqId: 40011,
    clientOrgId: 1001,
    orgId: 1012,
    clientInternalReq: 'NW-REQ-0011',
    status: '8',
    reqClassId: 104,
    ownerUserId: 'pokafor',
    title: 'Clinical Informatics Nurse',
    createdAt: '2026-09-08T09:00:00Z',
    updatedAt: '2026-10-15T11:30:00Z',
    questions: ['EHR systems used?'],
    fields: { ...longTerm },
  },
  {
    reqId: 40012,
    clientOrgId: 1001,
    orgId: 1001,
    clientInternalReq: 'NW-REQ-0012',
    status: '4',
    reqClassId: 101,
    ownerUserId: 'amorgan2',
    title: 'Mobile Developer',
    createdAt: '2026-10-19T14:00:00Z',
    skills: [
      ['Kotlin', '1', '3', '4', '3'],
      ['Swift', '2', '2', '4', '2'],
      ['CI/CD pipelines', '3', '1', '4', ''],
    ],
    questions: ['App store links?', 'Remote or on site?'],
    fields: { ...longTerm, billrangefrom: '90.00', billrangeto: '70.00', maximumbillrate: '0' },
  },
  {
    reqId: 40013,
    clientOrgId: 1002,
    orgId: 1002,
    clientInternalReq: 'CM-2026-101',
    status: '4',
    reqClassId: 201,
    ownerUserId: 'tbrooks',
    title: 'Mechanical Design Engineer',
    createdAt: '2026-01-20T08:00:00Z',
    updatedAt: '2026-02-14T09:00:00Z',
    skills: [
      ['SolidWorks', '1', '5', '4', '20'],
      ['GD&T', '2', '3', '4', '20'],
      ['Tooling design', '3', '2', '4', '10'],
    ],
    questions: ['Security clearance?', 'Willing to travel to Toledo monthly?'],
    fields: {
      ...longTerm,
      billrangefrom: '80.00',
      billrangeto: '60.00',
      maximumbillrate: '0',
      nottoexceedrate: '92.00',
      nottoexceedratecode: '1',
      worklocationid: '311',
      worklocationrefcode: 'WL-DET',
    },
  },
  {
    reqId: 40014,
    clientOrgId: 1002,
    orgId: 1002,
    clientInternalReq: 'CM-2026-102',
    status: '5',
    reqClassId: 202,
    ownerUserId: 'rsingh',
    title: 'Forklift Operator, second shift',
    createdAt: '2026-03-09T06:30:00Z',
    skills: [['Forklift certification', '1', '1', '4', '20']],
    questions: ['Certification expiry date?'],
    fields: {
      ...longTerm,
      noofopenings: '6',
      billrangefrom: '28.00',
      billrangeto: '22.00',
      nottoexceedratecode: '3',
      worklocationid: '312',
      worklocationrefcode: 'WL-TOL',
    },
  },
  {
    reqId: 40015,
    clientOrgId: 1002,
    orgId: 1002,
    clientInternalReq: 'CM-2026-103',
    status: '6',
    reqClassId: 203,
    ownerUserId: 'lnguyen',
    title: 'MES Software Developer',
    createdAt: '2026-04-27T10:00:00Z',
    updatedAt: '2026-06-30T15:00:00Z',
    skills: [['C# and .NET', '1', '4', '4', '30']],
    fields: { ...longTerm, nottoexceedratecode: '2' },
  },
  {
    reqId: 40016,
    clientOrgId: 1002,
    orgId: 1002,
    clientInternalReq: 'CM-2026-104',
    status: '8',
    reqClassId: 201,
    ownerUserId: 'tbrooks',
    title: 'Thermal Analysis Engineer',
    createdAt: '2026-05-18T09:00:00Z',
    updatedAt: '2026-08-21T10:00:00Z',
    questions: ['ANSYS experience?'],
    fields: { ...longTerm, nottoexceedratecode: '1' },
  },
  {
    reqId: 40017,
    clientOrgId: 1002,
    orgId: 1002,
    clientInternalReq: 'CM-2026-105',
    status: '9',
    reqClassId: 202,
    ownerUserId: 'rsingh',
    title: 'Warehouse Lead',
    createdAt: '2026-07-01T07:00:00Z',
    updatedAt: '2026-07-28T07:30:00Z',
    skills: [['Team leadership', '1', '2', '4', '30']],
    fields: { ...longTerm, nottoexceedratecode: '3' },
  },
  {
    reqId: 40018,
    clientOrgId: 1002,
    orgId: 1002,
    clientInternalReq: 'CM-2026-106',
    status: '4',
    reqClassId: 203,
    ownerUserId: 'lnguyen',
    title: 'Automation Developer',
    createdAt: '2026-09-14T13:00:00Z',
    skills: [
      ['PLC programming', '1', '3', '4', '20'],
      ['Python', '2', '2', '4', '20'],
      ['OPC UA', '3', '1', '4', '10'],
    ],
    questions: ['Which PLC brands?', 'Shift work possible?'],
    fields: {
      ...longTerm,
      billrangefrom: '85.00',
      billrangeto: '65.00',
      maximumbillrate: '1',
      nottoexceedrate: '99.00',
      nottoexceedratecode: '2',
    },
  },
  {
    reqId: 40019,
    clientOrgId: 1002,
    orgId: 1002,
    clientInternalReq: 'CM-2026-107',
    status: '5',
    reqClassId: 201,
    ownerUserId: 'tbrooks',
    title: 'Quality Engineer',
    createdAt: '2026-10-05T08:00:00Z',
    updatedAt: '2026-11-02T09:00:00Z',
    skills: [['Six Sigma', '2', '2', '4', '20']],
    questions: ['Green or black belt?'],
    fields: { ...longTerm, nottoexceedratecode: '1' },
  },
  {
    reqId: 40020,
    clientOrgId: 1002,
    orgId: 1002,
    clientInternalReq: 'CM-2026-108',
    status: '4',
    reqClassId: 202,
    ownerUserId: 'rsingh',
    title: 'Material Handler',
    createdAt: '2026-11-09T06:00:00Z',
    fields: { ...longTerm, noofopenings: '10', nottoexceedratecode: '3' },
  },
];

function buildRecord(spec: SeedSpec, client: ClientReference): RequisitionRecord {
  const reqClass = client.reqClasses.find((c) => c.id === spec.reqClassId);
  const owner = client.users.find((u) => u.userId === spec.ownerUserId);
  const contact = client.users.find((u) => u.userId === (spec.contactUserId ?? spec.ownerUserId));
  if (!reqClass || !owner || !contact) {
    throw new Error(`Seed requisition ${spec.reqId} names reference data its client lacks.`);
  }
  const record = blankRequisitionRecord();
  Object.assign(record, {
    orgid: String(spec.orgId),
    reqclassid: String(reqClass.id),
    fullreqpath: reqClass.fullPath,
    titlerole: spec.title,
    noofopenings: '1',
    clientinternalreq: spec.clientInternalReq,
    reqpriority: '2',
    hoursunitsperday: '8',
    daysperweek: '5',
    reqstatus: spec.status,
    engagementtype: '1',
    shortdescription: `${spec.title} for ${client.name}.`,
    completedescription: `${spec.title} joining an existing team at ${client.name}. Seeded by the sandbox VMS.`,
    clientcontactid: contact.userId,
    clientcontactfirstname: contact.firstName,
    clientcontactlastname: contact.lastName,
    reqownerid: owner.userId,
    reqownerfirstname: owner.firstName,
    reqownerlastname: owner.lastName,
    // Rule 5: reports-to defaults to the owner.
    reportstoid: owner.userId,
    reportstofirstname: owner.firstName,
    reportstolastname: owner.lastName,
  });
  spec.skills?.forEach(([description, requiredDesired, amount, amountType, expertise], index) => {
    const n = index + 1;
    Object.assign(record, {
      [`skill${n}`]: String(n),
      [`skilldescription${n}`]: description,
      [`requireddesired${n}`]: requiredDesired,
      [`amountofexperience${n}`]: amount,
      [`amountofexperiencetype${n}`]: amountType,
      [`expertiserating${n}`]: expertise,
    });
  });
  spec.questions?.forEach((text, index) => {
    const n = index + 1;
    Object.assign(record, { [`question${n}`]: String(n), [`questiondescription${n}`]: text });
  });
  Object.assign(record, spec.fields);
  return record;
}

export function seedRequisitions(clients: readonly ClientReference[]): StoredRequisition[] {
  return specs.map((spec) => {
    const client = clients.find((c) => c.orgId === spec.clientOrgId);
    if (!client) throw new Error(`Seed requisition ${spec.reqId} names an unknown client.`);
    return {
      reqId: spec.reqId,
      clientOrgId: spec.clientOrgId,
      orgId: spec.orgId,
      clientInternalReq: spec.clientInternalReq,
      createdAt: spec.createdAt,
      updatedAt: spec.updatedAt ?? spec.createdAt,
      record: buildRecord(spec, client),
    };
  });
}
