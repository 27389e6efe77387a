import type { PortalDatabase } from '@/server/store/database';
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

/** The accounts' stores on the portal database, each under its own name for the metrics. */
export function openAccountStores(database: PortalDatabase): AccountStores {
  return {
    users: database.open('users', { sqlite: createUserStore, postgres: createPostgresUserStore }),
    sessions: database.open('sessions', {
      sqlite: createSessionStore,
      postgres: createPostgresSessionStore,
    }),
    signInFailures: database.open('signInFailures', {
      sqlite: createSignInFailureStore,
      postgres: createPostgresSignInFailureStore,
    }),
    ssoLogins: database.open('ssoLogins', {
      sqlite: createSsoLoginStore,
      postgres: createPostgresSsoLoginStore,
    }),
    userRecords: database.open('userRecords', {
      sqlite: createUserRecordStore,
      postgres: createPostgresUserRecordStore,
    }),
  };
}
