/**
 * One person's data from the command line, on the database the server uses (PORTAL_DB or
 * DATABASE_URL, from the environment and `.env` like `npm start`), while the portal runs:
 *
 *   npm run privacy -- find EMAIL [--name "First Last"]
 *   npm run privacy -- export EMAIL --out FILE [--name "First Last"] [--reason "…"]
 *   npm run privacy -- erase EMAIL --reason "…" [--name "First Last"]
 *   npm run privacy -- compact
 *
 * The same search as the admin page's (decision 059). `export` writes the JSON file, or the
 * readable page when FILE ends in .html; export and erase are audit events, made by "the command
 * line" with the reason and the counts. Exit 0 when done, 1 when it failed, 2 for a usage or
 * configuration problem.
 */
import { writeFileSync } from 'node:fs';
import {
  eraseRequestSchema,
  subjectOf,
  type PersonalSubject,
  type StoreCounts,
  type SubjectExport,
} from '@/domain/personal-subject';
import { openAuditStore } from '@/server/audit/audit-plugin';
import {
  CliRefusal,
  readArguments,
  readPortalConfig,
  runCommand,
  withPortalDatabase,
  type CliIo,
} from '@/server/cli/cli-kit';
import type { PortalDatabase } from '@/server/store/database';
import { subjectExportPage } from './export-page';
import { countDetails, openPrivacyService, reasonWithoutSubject } from './privacy-routes';

export const privacyUsage = `usage: npm run privacy -- find EMAIL [--name "First Last"]
       npm run privacy -- export EMAIL --out FILE [--name "First Last"] [--reason "..."]
       npm run privacy -- erase EMAIL --reason "..." [--name "First Last"]
       npm run privacy -- compact`;

const usageProblem = (message: string) => new CliRefusal(`${message}\n${privacyUsage}`, 2);

/** What an export made at the command line says of why, when the operator gave no reason. */
const exportReason = 'Subject access request (command line)';

function describeCounts(counts: StoreCounts): string {
  const stores = Object.entries(counts);
  if (stores.length === 0) return 'Nothing held about this person.\n';
  return `${stores.map(([store, n]) => `${store}: ${n}`).join('\n')}\n`;
}

function parse(argv: string[]) {
  const parsed = readArguments(
    argv,
    { name: { type: 'string' }, reason: { type: 'string' }, out: { type: 'string' } },
    privacyUsage,
  );
  const [command, email, ...extra] = parsed.positionals;
  if (command === undefined || !['find', 'export', 'erase', 'compact'].includes(command)) {
    throw usageProblem(command === undefined ? 'Give a command.' : `Unknown command "${command}".`);
  }
  if (command === 'compact') {
    if (email !== undefined) throw usageProblem('compact takes no e-mail address.');
    return { command, out: undefined, request: undefined };
  }
  if (email === undefined || extra.length > 0) {
    throw usageProblem('Give one e-mail address.');
  }
  if (command === 'export' && parsed.values.out === undefined) {
    throw usageProblem('Give the file to write with --out FILE.');
  }
  const checked = eraseRequestSchema.safeParse({
    email,
    name: parsed.values.name,
    reason: parsed.values.reason ?? (command === 'erase' ? '' : exportReason),
  });
  if (!checked.success) {
    throw new CliRefusal(checked.error.issues.map((issue) => issue.message).join('\n'), 2);
  }
  return { command, out: parsed.values.out, request: checked.data };
}

export function runPrivacyCli(argv: string[], io: CliIo): Promise<number> {
  const now = io.now ?? Date.now;
  return runCommand('privacy', io, async () => {
    const { command, out, request } = parse(argv);
    const config = readPortalConfig(io.env);
    return withPortalDatabase(config, async (database) => {
      const service = openPrivacyService(database, { now });
      if (request === undefined) {
        const tables = await service.compact();
        io.stdout(
          tables.length > 0
            ? `Rewritten whole: ${tables.join(', ')}\n`
            : 'Nothing to compact: SQLite zeroes what an erasure frees as it goes.\n',
        );
        return 0;
      }
      const subject = subjectOf(request);
      const audit = (
        event: 'personal_data_exported' | 'personal_data_erased',
        counts: StoreCounts,
      ) => recordEvent(database, event, request.reason, subject, counts, now);
      if (command === 'find') {
        io.stdout(describeCounts((await service.find(subject)).counts));
      } else if (command === 'export') {
        const found = await service.find(subject);
        const held: SubjectExport = {
          subject: { email: request.email, name: request.name?.trim() || null },
          exportedAt: new Date(now()).toISOString(),
          counts: found.counts,
          records: found.records,
        };
        const file = out ?? '';
        writeFileSync(
          file,
          file.toLowerCase().endsWith('.html')
            ? subjectExportPage(held)
            : JSON.stringify(held, null, 2),
          { mode: 0o600 },
        );
        await audit('personal_data_exported', found.counts);
        io.stdout(`${describeCounts(found.counts)}Written to ${file}\n`);
      } else {
        const erased = await service.erase(subject);
        await audit('personal_data_erased', erased.counts);
        io.stdout(`Erased at ${erased.erasedAt}:\n${describeCounts(erased.counts)}`);
      }
      return 0;
    });
  });
}

async function recordEvent(
  database: PortalDatabase,
  event: 'personal_data_exported' | 'personal_data_erased',
  reason: string,
  subject: PersonalSubject,
  counts: StoreCounts,
  now: () => number,
): Promise<void> {
  const at = now();
  await openAuditStore(database).append([
    {
      at,
      event,
      userId: null,
      email: null,
      connection: null,
      address: null,
      outcome: 'ok',
      status: null,
      details: {
        via: 'command line',
        reason: reasonWithoutSubject(reason, subject, new Date(at)),
        ...countDetails(counts),
      },
      traceId: null,
    },
  ]);
}
