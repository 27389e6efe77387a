import { postgresEnvName, startTestPostgres } from './postgres-server';

/**
 * Vitest's global setup: one real PostgreSQL server for the whole run, its maintenance URL in the
 * environment the test workers inherit; each test makes its own databases on it.
 */
export default async function setup(): Promise<() => void> {
  // Each project runs the global setup; the first one's server serves them all.
  if (process.env[postgresEnvName]) return () => {};
  const server = await startTestPostgres();
  process.env[postgresEnvName] = server.adminUrl;
  return () => server.stop();
}
