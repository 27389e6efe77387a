import { postgresEnvName, startTestPostgres } from '@/test-support/postgres-server';

/**
 * One real PostgreSQL server for the run, used by the chromium-postgres project (the
 * sign-in journeys again with DATABASE_URL); its URL reaches the workers through the environment.
 */
export default async function globalSetup(): Promise<() => void> {
  const server = await startTestPostgres();
  process.env[postgresEnvName] = server.adminUrl;
  return () => server.stop();
}
