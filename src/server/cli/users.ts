/**
 * The accounts of a portal with sign-in (decision 026), from the command line, on the
 * portal database the server uses (PORTAL_DB or DATABASE_URL, from the environment and `.env` like `npm start`):
 *
 *   npm run users -- add [--role recruiter|qa|admin] [--org 1001,1002] [--password-stdin] EMAIL
 *   npm run users -- invite [--role …] [--org …] EMAIL   (prints a one-time link, 72 hours)
 *   npm run users -- list
 *   npm run users -- disable EMAIL | enable EMAIL
 *
 * `add` asks for the password twice without echoing it, or reads the first line of standard input
 * with --password-stdin (scripts, tests); the rest is ignored. Exit 0 when done, 1 when refused (the address is taken,
 * no such user, a password too short), 2 for a usage or configuration problem.
 */
import { randomUUID } from 'node:crypto';
import { emailSchema, passwordSchema, roles, type Role } from '@/domain/auth';
import { hashPassword } from '@/server/accounts/passwords';
import { inviteLifetimeMs } from '@/server/accounts/portal-auth';
import { openAccountStores } from '@/server/accounts/store/account-stores';
import type { StoredUser, UserStore } from '@/server/accounts/store/users';
import { randomToken, tokenDigest } from '@/server/accounts/tokens';
import type { PortalConfig } from '@/server/config';
import {
  CliRefusal,
  readArguments,
  readPortalConfig,
  runCommand,
  withPortalDatabase,
  type CliIo,
} from './cli-kit';

export const usersUsage = `usage: npm run users -- <command>
  add [--role recruiter|qa|admin] [--org 1001,1002] [--password-stdin] EMAIL
  invite [--role recruiter|qa|admin] [--org 1001,1002] EMAIL
  list
  disable EMAIL
  enable EMAIL`;

/** What the CLI talks to: its streams and how to ask for a password. */
export interface UsersCliIo extends CliIo {
  /** All of standard input (for --password-stdin). */
  readStdin: () => Promise<string>;
  /** Asks for a secret without echoing it; null when there is no terminal to ask on. */
  askHidden: ((question: string) => Promise<string>) | null;
}

const usageProblem = (message: string) => new CliRefusal(`${message}\n${usersUsage}`, 2);

function parseRole(value: string | undefined): Role | undefined {
  if (value === undefined) return undefined;
  const role = roles.find((known) => known === value);
  if (!role) throw usageProblem(`--role must be one of ${roles.join(', ')}; got "${value}".`);
  return role;
}

function parseOrgs(value: string | undefined, config: PortalConfig): number[] | undefined {
  if (value === undefined) return undefined;
  const ids = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  const orgs: number[] = [];
  for (const id of ids) {
    const org = /^\d{1,16}$/.test(id) ? Number(id) : Number.NaN;
    if (!config.clientOrgIds.includes(org)) {
      throw new CliRefusal(
        `--org: this portal does not act for client org "${id}"; it acts for ${config.clientOrgIds.join(', ')} (VMS_CLIENT_ORGS).`,
        1,
      );
    }
    if (!orgs.includes(org)) orgs.push(org);
  }
  return orgs;
}

function parseEmail(positionals: string[]): string {
  const [email, ...rest] = positionals;
  if (email === undefined || rest.length > 0) throw usageProblem('Give one e-mail address.');
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) throw new CliRefusal(`"${email}" is not an e-mail address.`, 1);
  return parsed.data;
}

/** Text up to its first line end, without it. */
export function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return (end < 0 ? text : text.slice(0, end)).replace(/\r$/, '');
}

async function readPassword(io: UsersCliIo, fromStdin: boolean): Promise<string> {
  let password: string;
  if (fromStdin) {
    // The first line, without its line end (\n or \r\n): `printf 'pw\npw\n'` (a habit from
    // commands that ask twice) must set "pw", not a password with a line break that no one can
    // type into the sign-in page.
    password = firstLine(await io.readStdin());
  } else {
    if (!io.askHidden) {
      throw usageProblem(
        'There is no terminal to ask for the password on: pipe it in with --password-stdin.',
      );
    }
    password = await io.askHidden('Password (12 characters or more): ');
    const again = await io.askHidden('The same password again: ');
    if (again !== password)
      throw new CliRefusal('The two passwords differ; nothing was changed.', 1);
  }
  const parsed = passwordSchema.safeParse(password);
  if (!parsed.success) {
    throw new CliRefusal(parsed.error.issues.map((issue) => issue.message).join(' '), 1);
  }
  return parsed.data;
}

function publicBase(config: PortalConfig): string {
  if (config.auth.publicOrigin) return config.auth.publicOrigin;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${config.port}`;
}

function describeUser(user: StoredUser): string {
  const orgs = user.role === 'admin' ? 'all orgs' : user.clientOrgIds.join(',') || 'no orgs';
  const state = user.disabled ? 'disabled' : user.passwordHash === null ? 'invited' : 'active';
  const last = user.lastSignInAt === null ? 'never' : new Date(user.lastSignInAt).toISOString();
  return `${user.email}\t${user.role}\t${orgs}\t${state}\tlast sign-in: ${last}`;
}

async function existing(users: UserStore, email: string): Promise<StoredUser> {
  const user = await users.byEmail(email);
  if (!user) throw new CliRefusal(`There is no account for ${email}.`, 1);
  return user;
}

/** Runs one command; returns the exit code. */
export function runUsersCli(argv: string[], io: UsersCliIo): Promise<number> {
  const now = io.now ?? Date.now;
  return runCommand('users', io, async () => {
    const [command, ...rest] = argv;
    const { values, positionals } = readArguments(
      rest,
      {
        role: { type: 'string' },
        org: { type: 'string' },
        'password-stdin': { type: 'boolean' },
      },
      usersUsage,
    );
    const config = readPortalConfig(io.env);
    if (!['add', 'invite', 'list', 'disable', 'enable'].includes(command ?? '')) {
      throw usageProblem(
        command === undefined ? 'Give a command.' : `Unknown command "${command}".`,
      );
    }
    const role = parseRole(values.role);
    const orgs = parseOrgs(values.org, config);
    const email = command === 'list' ? '' : parseEmail(positionals);
    // Asked before the database is opened: nothing is held while someone types.
    const password =
      command === 'add' ? await readPassword(io, values['password-stdin'] === true) : null;

    return withPortalDatabase(config, async (database) => {
      const { users, sessions } = openAccountStores(database);
      switch (command) {
        case 'list': {
          const all = await users.list();
          io.stdout(
            all.length === 0
              ? 'No accounts yet. Add one: npm run users -- add --role admin you@example.com\n'
              : `${all.map((user) => describeUser(user)).join('\n')}\n`,
          );
          return 0;
        }
        case 'add': {
          const created = await users.create({
            id: randomUUID(),
            email,
            role: role ?? 'recruiter',
            passwordHash: await hashPassword(password ?? ''),
            clientOrgIds: orgs ?? [],
            createdAt: now(),
          });
          if (!created) throw new CliRefusal(`There is already an account for ${email}.`, 1);
          io.stdout(`Added ${describeUser(await existing(users, email))}\n`);
          if (!config.auth.required) {
            io.stdout(
              'Note: sign-in is off on this portal (loopback, AUTH unset): set AUTH=on to use accounts.\n',
            );
          }
          return 0;
        }
        case 'invite': {
          let user = await users.byEmail(email);
          if (!user) {
            await users.create({
              id: randomUUID(),
              email,
              role: role ?? 'recruiter',
              passwordHash: null,
              clientOrgIds: orgs ?? [],
              createdAt: now(),
            });
          } else if (role !== undefined || orgs !== undefined) {
            await users.update(user.id, {
              ...(role === undefined ? {} : { role }),
              ...(orgs === undefined ? {} : { clientOrgIds: orgs }),
            });
          }
          user = await existing(users, email);
          const token = randomToken();
          await users.invite({
            tokenHash: tokenDigest(token),
            userId: user.id,
            createdAt: now(),
            expiresAt: now() + inviteLifetimeMs,
          });
          io.stdout(
            `Invite for ${describeUser(user)}\n${publicBase(config)}/invite/${token}\nThe link works once, for 72 hours; an earlier link for this user no longer works.\n`,
          );
          return 0;
        }
        default: {
          const user = await existing(users, email);
          const disable = command === 'disable';
          await users.update(user.id, { disabled: disable });
          const ended = disable ? await sessions.deleteForUser(user.id) : 0;
          io.stdout(
            `${disable ? 'Disabled' : 'Enabled'} ${email}${disable ? ` (${ended} session${ended === 1 ? '' : 's'} ended)` : ''}\n`,
          );
          return 0;
        }
      }
    });
  });
}
