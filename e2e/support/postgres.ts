import { createTestDatabase, postgresEnvName } from '@/test-support/postgres-server';

/** A new database on the PostgreSQL server the run's global setup started (e2e/global-setup.ts). */
export function newTestDatabase(): string {
  const adminUrl = process.env[postgresEnvName];
  if (!adminUrl)
    throw new Error(`${postgresEnvName} is unset: e2e/global-setup.ts starts PostgreSQL`);
  return createTestDatabase(adminUrl);
}
