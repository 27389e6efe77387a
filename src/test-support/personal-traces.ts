import { constants, inflateRawSync } from 'node:zlib';
import { queryTestDatabase, testDatabaseBytes } from './test-database';

/**
 * For tests that prove a person's values are gone (decision 059) or were never written (a log,
 * a download): each value in every form a store, a page or a file may hold it in. Matching is
 * without regard to case, and on bytes read as Latin-1, so that a database file's binary pages
 * can be searched as they are.
 */
function writtenForms(value: string): string[] {
  const json = JSON.stringify(value).slice(1, -1);
  const asciiJson = json.replace(
    /[^\x20-\x7e]/gu,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  const percent = encodeURIComponent(value);
  const forms = [
    value,
    json,
    asciiJson,
    percent,
    percent.replaceAll('%20', '+'),
    // pg_dump writes a BYTEA column as hex.
    Buffer.from(value, 'utf8').toString('hex'),
  ];
  return [...new Set(forms.map((form) => Buffer.from(form, 'utf8').toString('latin1')))];
}

/** Each form of each value that `held` holds, as `where: form`; none is the proof. */
export function tracesIn(
  where: string,
  held: Buffer | string,
  values: readonly string[],
): string[] {
  const text = (typeof held === 'string' ? Buffer.from(held, 'utf8') : held)
    .toString('latin1')
    .toLowerCase();
  return values.flatMap((value) =>
    writtenForms(value)
      .filter((form) => text.includes(form.toLowerCase()))
      .map((form) => `${where}: ${form}`),
  );
}

interface StoredBody {
  id: number;
  compressed: number;
  data: Buffer;
}

/**
 * Every form of the values the portal's database still holds: its bytes (the SQLite file with its
 * WAL, or a dump of the PostgreSQL database), and each journal body inflated, since the journal
 * deflates bodies and a deflated value shows in no form at all. `url` names a PostgreSQL database
 * the caller made; otherwise the test project's store decides (testStoreEnv).
 */
export async function personalTraces(
  portalDb: string,
  values: readonly string[],
  url?: string | null,
): Promise<string[]> {
  const bodies = await queryTestDatabase<StoredBody>(
    portalDb,
    'SELECT id, compressed, data FROM journal_bodies ORDER BY id',
    url,
  );
  return [
    ...tracesIn('database', testDatabaseBytes(portalDb, url), values),
    ...bodies.flatMap((body) =>
      tracesIn(
        `journal body ${body.id}`,
        Number(body.compressed) === 1
          ? inflateRawSync(body.data, { finishFlush: constants.Z_SYNC_FLUSH })
          : body.data,
        values,
      ),
    ),
  ];
}
