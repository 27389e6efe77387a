import type { PortalDatabase, StoreFactories } from '@/server/store/database';
import { createPostgresSessionStore } from './postgres/sessions';
import { createPostgresSignInFailureStore, createPostgresSsoLoginStore } from './postgres/sign-in';
import { createPostgresUserRecordStore } from './postgres/user-records';
import { createPostgresUserStore } from './postgres/users';
import { createSessionStore, type SessionStore } from './sessions';
import { createSignInFailureStore, type SignInFailureStore } from './sign-in-failures';
import { createSsoLoginStore, type SsoLoginStore } from './sso-logins';
import { createUserRecordStore, type UserRecordStore } from './user-records';
import { createUserStore, type UserStore } from './users';

/** What accounts keep in the portal database (decision 026), one store per table group. */
export interface AccountStores {
  users: UserStore;
  sessions: SessionStore;
  signInFailures: SignInFailureStore;
  ssoLogins: SsoLoginStore;
  userRecords: UserRecordStore;
}

/** Each of the accounts' stores, as SQLite and PostgreSQL make it. */
const factories: { [K in keyof AccountStores]: StoreFactories<AccountStores[K]> } = {
  users: { sqlite: createUserStore, postgres: createPostgresUserStore },
  sessions: { sqlite: createSessionStore, postgres: createPostgresSessionStore },
  signInFailures: { sqlite: createSignInFailureStore, postgres: createPostgresSignInFailureStore },
  ssoLogins: { sqlite: createSsoLoginStore, postgres: createPostgresSsoLoginStore },
  userRecords: { sqlite: createUserRecordStore, postgres: createPostgresUserRecordStore },
};

/** The accounts' stores on the portal database, each under its own name for the metrics. */
export function openAccountStores(database: PortalDatabase): AccountStores {
  const open = <K extends keyof AccountStores>(name: K) => database.open(name, factories[name]);
  return {
    users: open('users'),
    sessions: open('sessions'),
    signInFailures: open('signInFailures'),
    ssoLogins: open('ssoLogins'),
    userRecords: open('userRecords'),
  };
}
