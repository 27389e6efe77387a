// @ts-check
/**
 * The import boundaries that lint enforces, drawn from the folder tree when lint starts: every
 * folder of src/features is a feature and every folder of src/server a server concern, so a new
 * one is guarded the day it is made (docs/style.md "Boundaries"). eslint.config.js builds its
 * zones from here, dependency-cruiser.mjs its rules, and src/layers.test.ts checks both.
 */
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const srcDir = fileURLToPath(new URL('../src/', import.meta.url));

/** The folders directly under src/<area>, sorted (files beside them are not areas). */
export function foldersOf(area) {
  return readdirSync(`${srcDir}${area}`, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

/**
 * What each server concern may import of the others: the one list of the server's allowed
 * dependencies (docs/architecture.md's concern table says why each is there). Every concern may
 * also import the portal's settings (src/server/config.ts); the files beside the concerns (app.ts,
 * start.ts, portal-schema.ts…) compose them and may import any; a concern that needs one of them
 * names it with its .ts. The arrows go one way: no concern reaches one that reaches it back (the
 * cycle check enforces that too).
 */
export const serverConcerns = {
  // accounts, sessions, sign-in; their stores
  accounts: ['http', 'store'],
  // personal API tokens, built on accounts
  'api-tokens': ['accounts', 'http', 'store'],
  // the audit trail: accounts' event names, the proxy's call line
  audit: ['accounts', 'http', 'proxy', 'store'],
  // npm run users / backup / restore: the command line over the stores, with the portal's schema
  cli: ['accounts', 'proxy', 'store', 'portal-schema.ts'],
  // the connections' settings and their checks, run by the doctor
  connections: ['doctor', 'http'],
  // e-mail and webhook deliveries: the outbox, its worker, the webhooks and each user's choices;
  // channels on the notifications' notifier, sent through mail and webhooks
  deliveries: [
    'accounts',
    'audit',
    'http',
    'mail',
    'metrics',
    'notifications',
    'store',
    'webhooks',
  ],
  // npm run doctor: signs as the proxy does, scrubs what it shows
  doctor: ['proxy', 'redaction'],
  // routes' plumbing: guards, schemas, errors; reads the session accounts decorate
  http: [],
  // the call journal and its store; the proxy's outcome comes in through the proxy's tap
  journal: ['http', 'redaction', 'store'],
  // e-mail: the SMTP settings, the sending with nodemailer, messages without candidates' data
  mail: [],
  // the notifications in the app: each batch the watch is done with, for whoever sent it
  notifications: ['http', 'store', 'watch'],
  // /metrics: times every store, counts what the proxy, the journal and accounts do
  metrics: ['accounts', 'http', 'journal', 'ops', 'proxy', 'store'],
  // drain, health: the journal's backlog, the database's version
  ops: ['http', 'journal', 'store'],
  // the VMS proxy: accounts' scopes, the journal's tap, the drain
  proxy: ['accounts', 'http', 'journal', 'ops', 'redaction', 'store'],
  // one person's data found, exported and erased across every store (decision 059): it reads the
  // journal's search and body packing, records in the audit trail; npm run privacy opens the
  // database with the portal's schema and reads its arguments like the other commands (cli); the
  // readable export escapes what it shows like the e-mails (mail)
  privacy: ['audit', 'cli', 'http', 'journal', 'mail', 'store', 'portal-schema.ts'],
  // removing connection secrets from what is shown or kept
  redaction: [],
  // the built app's pages: the session cookie's name
  spa: ['accounts', 'http'],
  // what every store shares: opening a database, the migration runner, backups
  store: [],
  // QA suites: a run acts as whoever started it, API token included
  suites: ['api-tokens', 'http', 'store'],
  // the watch of accepted batches: told by the proxy's declared interface, asks as the sender
  watch: ['accounts', 'http', 'metrics', 'proxy', 'store'],
  // webhook deliveries: the address checks, the signature, the sending; they need no other concern
  webhooks: [],
};

/** The root files every concern may import (paths relative to src/server). */
export const sharedServerFiles = ['config.ts'];

/**
 * What is wrong with the map against the tree: a concern folder it does not list (it would be
 * unguarded), a listed concern with no folder, a dependency on no concern, a circle of allowed
 * dependencies. Empty when all is well; eslint.config.js refuses to load otherwise.
 * @param {string[]} [folders]
 * @param {Record<string, string[]>} [concerns]
 */
export function serverConcernProblems(folders = foldersOf('server'), concerns = serverConcerns) {
  const problems = [];
  const rootFiles = readdirSync(`${srcDir}server`);
  for (const folder of folders) {
    if (!(folder in concerns)) {
      problems.push(
        `src/server/${folder} is not in serverConcerns (scripts/boundaries.mjs): declare which concerns it may import.`,
      );
    }
  }
  for (const [concern, allowed] of Object.entries(concerns)) {
    if (!folders.includes(concern)) {
      problems.push(`serverConcerns lists ${concern}, which has no folder in src/server.`);
    }
    for (const other of allowed) {
      const known = other.endsWith('.ts') ? rootFiles.includes(other) : other in concerns;
      if (!known) {
        problems.push(`serverConcerns lets ${concern} import ${other}, which is no concern.`);
      }
    }
  }
  /** @type {Map<string, 'open' | 'done'>} */
  const state = new Map();
  /** @param {string} concern @param {string[]} path */
  const visit = (concern, path) => {
    if (state.get(concern) === 'done') return;
    if (state.get(concern) === 'open') {
      problems.push(
        `serverConcerns has a circle: ${[...path.slice(path.indexOf(concern)), concern].join(' → ')}.`,
      );
      return;
    }
    state.set(concern, 'open');
    for (const other of concerns[concern] ?? []) visit(other, [...path, concern]);
    state.set(concern, 'done');
  };
  for (const concern of Object.keys(concerns)) visit(concern, []);
  return problems;
}
