import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { candidateResultStatuses, requisitionResultStatuses } from '@/domain/batch-results';
import { payloadKinds } from '@/domain/payload-kind';
import { requisitionReferences } from '@/domain/requisition-catalog';
import { seedDatabase } from './seed';

export type SandboxDatabase = Database.Database;

/**
 * Bumped whenever the tables change. A database file from another version is refused with a
 * message that says to reset it, rather than being half-migrated: it only holds sandbox data.
 */
const schemaVersion = 1;

/**
 * Reference data (orgs, users, codes…) is seeded and read-only; requisitions, candidates and batch
 * items change. Every value the interface carries as a string stays a string here too, in the
 * `record` JSON, so what GET /requisitions returns is exactly what was stored.
 */
/** A CHECK list from the domain's own list, so the storage cannot disagree with the rules. */
const sqlList = (values: readonly string[]) => values.map((value) => `'${value}'`).join(', ');
const itemStatuses = [...new Set([...requisitionResultStatuses, ...candidateResultStatuses])];

const schemaSql = `
CREATE TABLE vendor_orgs (
  org_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL
);
CREATE TABLE api_keys (
  api_key TEXT PRIMARY KEY,
  secret TEXT NOT NULL,
  vendor_org_id INTEGER NOT NULL REFERENCES vendor_orgs(org_id)
);
CREATE TABLE client_orgs (
  org_id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  -- NULL for a client org; the client org for one of its sub-orgs.
  parent_org_id INTEGER REFERENCES client_orgs(org_id),
  allows_exceeding_hourly_high INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE api_key_clients (
  api_key TEXT NOT NULL REFERENCES api_keys(api_key),
  client_org_id INTEGER NOT NULL REFERENCES client_orgs(org_id),
  PRIMARY KEY (api_key, client_org_id)
);
CREATE TABLE req_classes (
  id INTEGER PRIMARY KEY,
  client_org_id INTEGER NOT NULL REFERENCES client_orgs(org_id),
  full_path TEXT NOT NULL,
  UNIQUE (client_org_id, full_path)
);
CREATE TABLE users (
  client_org_id INTEGER NOT NULL REFERENCES client_orgs(org_id),
  user_id TEXT NOT NULL,
  client_internal_id TEXT NOT NULL,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  PRIMARY KEY (client_org_id, user_id)
);
CREATE TABLE accounting_refs (
  kind TEXT NOT NULL CHECK (kind IN (${sqlList(requisitionReferences.map(({ stem }) => stem))})),
  id INTEGER NOT NULL,
  client_org_id INTEGER NOT NULL REFERENCES client_orgs(org_id),
  ref_code TEXT NOT NULL,
  name TEXT NOT NULL,
  PRIMARY KEY (kind, id),
  UNIQUE (kind, client_org_id, ref_code)
);
CREATE TABLE choice_lists (
  client_org_id INTEGER NOT NULL REFERENCES client_orgs(org_id),
  list TEXT NOT NULL
    CHECK (list IN ('ratestructure', 'payrateperiod', 'nottoexceedratecode', 'expertiserating')),
  value TEXT NOT NULL,
  label TEXT NOT NULL,
  position INTEGER NOT NULL,
  PRIMARY KEY (client_org_id, list, value)
);
CREATE TABLE requisitions (
  req_id INTEGER PRIMARY KEY,
  client_org_id INTEGER NOT NULL REFERENCES client_orgs(org_id),
  org_id INTEGER NOT NULL REFERENCES client_orgs(org_id),
  client_internal_req TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  record TEXT NOT NULL,
  UNIQUE (client_org_id, client_internal_req)
);
CREATE INDEX requisitions_created ON requisitions (client_org_id, created_at);
CREATE INDEX requisitions_updated ON requisitions (client_org_id, updated_at);
CREATE TABLE candidates (
  cand_id INTEGER PRIMARY KEY,
  client_org_id INTEGER NOT NULL REFERENCES client_orgs(org_id),
  vendor_org_id INTEGER NOT NULL REFERENCES vendor_orgs(org_id),
  req_id INTEGER NOT NULL REFERENCES requisitions(req_id),
  email_key TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN (${sqlList(candidateResultStatuses.filter((status) => status === 'New' || status === 'Incomplete'))})),
  created_at TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE INDEX candidates_by_email ON candidates (req_id, email_key);
CREATE TABLE batches (
  batch_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN (${sqlList(payloadKinds)})),
  client_org_id INTEGER NOT NULL,
  vendor_org_id INTEGER NOT NULL,
  received_at TEXT NOT NULL,
  item_count INTEGER NOT NULL
);
CREATE TABLE batch_items (
  -- Arrival order across all batches: the worker takes the lowest Pending seq.
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  batch_id TEXT NOT NULL REFERENCES batches(batch_id),
  row INTEGER NOT NULL,
  payload TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'Pending'
    CHECK (status IN (${sqlList(itemStatuses)})),
  error_message TEXT NOT NULL DEFAULT '',
  -- Req_Id or Cand_Id once known.
  result_id TEXT NOT NULL DEFAULT '',
  -- ClientInternalReq or Vendor_Candidate_Id, so Pending rows can already show it.
  reference TEXT NOT NULL DEFAULT '',
  processed_at TEXT,
  UNIQUE (batch_id, row)
);
CREATE INDEX batch_items_pending ON batch_items (seq) WHERE status = 'Pending';
`;

const tables = [
  'batch_items',
  'batches',
  'candidates',
  'requisitions',
  'choice_lists',
  'accounting_refs',
  'users',
  'req_classes',
  'api_key_clients',
  'client_orgs',
  'api_keys',
  'vendor_orgs',
];

function connect(dbPath: string): SandboxDatabase {
  if (dbPath !== ':memory:') mkdirSync(dirname(dbPath), { recursive: true });
  const db = new Database(dbPath);
  // WAL lets GET requests read while the worker writes; NORMAL sync is durable against a crash of
  // the process (what resume-after-restart is about), and fast enough for 500 small transactions.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  return db;
}

function createAndSeed(db: SandboxDatabase): void {
  db.transaction(() => {
    for (const table of tables) db.exec(`DROP TABLE IF EXISTS ${table}`);
    db.exec(schemaSql);
    seedDatabase(db);
    db.pragma(`user_version = ${schemaVersion}`);
  })();
}

/** Opens the sandbox database, creating the schema and the seed on first use. */
export function openSandboxDatabase(dbPath: string): SandboxDatabase {
  const db = connect(dbPath);
  const version = db.pragma('user_version', { simple: true });
  if (version === 0) {
    createAndSeed(db);
  } else if (version !== schemaVersion) {
    db.close();
    throw new Error(
      `The sandbox database ${dbPath} has schema version ${String(version)}, this sandbox needs ` +
        `${schemaVersion}. Re-create it from the seed with \`npm run sandbox -- --reset\`.`,
    );
  }
  return db;
}

/**
 * Re-creates the database from the seed: every requisition, candidate and batch made since is
 * dropped. Stop any sandbox using the file first.
 */
export function resetSandboxDatabase(dbPath: string): void {
  const db = connect(dbPath);
  try {
    createAndSeed(db);
  } finally {
    db.close();
  }
}
