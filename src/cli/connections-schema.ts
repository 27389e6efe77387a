/**
 * Writes docs/connections.schema.json, the JSON Schema of the connections file (VMS_CONNECTIONS),
 * from the Zod schema the portal reads the file with, so an editor completes and checks the file
 * by the portal's own rules. `npm run docs:connections-schema` rewrites it; a unit test fails
 * when it is stale.
 */
import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { connectionsJsonSchema } from '@/domain/connection-entries';

export function renderConnectionsSchema(): string {
  return `${JSON.stringify(connectionsJsonSchema(), null, 2)}\n`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(
    new URL('../../docs/connections.schema.json', import.meta.url),
    renderConnectionsSchema(),
  );
  console.log('wrote docs/connections.schema.json');
}
