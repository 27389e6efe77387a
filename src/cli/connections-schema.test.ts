import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { connectionsFileSchema } from '@/domain/connection-entries';
import { readConnectionsFile } from '@/domain/connections-file';
import { renderConnectionsSchema } from './connections-schema';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const published = JSON.parse(read('docs/connections.schema.json')) as Record<string, unknown>;
const validate = new Ajv({ allErrors: true }).compile(published);

/** Each ```json block of the "Connections" section of docs/configuration.md that is a whole file. */
function documentedFiles(): { where: string; json: unknown }[] {
  const doc = read('docs/configuration.md');
  const section = doc.slice(doc.indexOf('\n### Connections'), doc.indexOf('\n### VMS profiles'));
  return [...section.matchAll(/```json\n([\s\S]*?)```/g)].map((match, index) => ({
    where: `configuration.md, Connections, JSON block ${index + 1}`,
    json: JSON.parse(match[1] ?? '') as unknown,
  }));
}

/** Both readers' verdicts: the portal's (Zod) and an editor's (the published JSON Schema). */
function verdicts(json: unknown) {
  const reading = readConnectionsFile(json);
  return {
    zod: 'file' in reading && connectionsFileSchema.safeParse(json).success,
    zodProblems: 'problems' in reading ? reading.problems : [],
    jsonSchema: validate(json),
    jsonSchemaErrors: validate.errors ?? [],
  };
}

describe('docs/connections.schema.json', () => {
  it('is what the schema generates (run `npm run docs:connections-schema` after changing it)', () => {
    expect(read('docs/connections.schema.json')).toBe(renderConnectionsSchema());
  });

  it('tells an editor what it is and what each key means', () => {
    expect(published).toMatchObject({
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: expect.any(String),
      title: expect.stringContaining('connections'),
      additionalProperties: false,
      required: ['connections'],
    });
    const connection = (published.properties as Record<string, { items: { anyOf: unknown[] } }>)
      .connections?.items.anyOf as { properties: Record<string, { description?: string }> }[];
    expect(connection).toHaveLength(2);
    for (const shape of connection) {
      for (const [key, property] of Object.entries(shape.properties)) {
        expect(property.description, key).toEqual(expect.any(String));
      }
    }
  });
});

describe('the documented connections files', () => {
  const examples = [
    {
      where: 'docs/examples/connections.json',
      json: JSON.parse(read('docs/examples/connections.json')) as unknown,
    },
    ...documentedFiles(),
  ];

  it('are there: the example file and the JSON blocks of the Connections section', () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
  });

  it.each(examples)('$where is read by both the portal and the JSON Schema', ({ json }) => {
    const result = verdicts(json);
    expect(result.zodProblems).toEqual([]);
    expect(result.jsonSchemaErrors).toEqual([]);
    expect(result.zod).toBe(true);
    expect(result.jsonSchema).toBe(true);
  });

  const example = JSON.parse(read('docs/examples/connections.json')) as {
    connections: Record<string, unknown>[];
  };
  const broken = (index: number, changes: Record<string, unknown>) => ({
    ...example,
    connections: example.connections.map((connection, at) =>
      at === index ? { ...connection, ...changes } : connection,
    ),
  });

  it.each([
    ['a secret written in', broken(1, { apiSecret: 'Zq8vW2nR5tY1uI4oP7aS' })],
    ['a key written in', broken(2, { apiKey: 'AKIA9X7W5V3U1T2S4R6Q' })],
    ['a misspelt key', broken(1, { lable: 'Acme UAT' })],
    ['a name that is not a slug', broken(1, { name: 'Acme UAT' })],
    ['a client org id written as text', broken(1, { clientOrgs: [{ id: '1001' }] })],
    ['production left unsaid', broken(2, { production: undefined })],
    ['a sandbox that says it is production', broken(0, { production: true })],
    ['an unknown preset', broken(1, { profile: 'vectorvm' })],
  ])('%s is refused by both', (_what, json) => {
    const result = verdicts(JSON.parse(JSON.stringify(json)));
    expect(result.zod).toBe(false);
    expect(result.jsonSchema).toBe(false);
  });

  it("tells an editor a signature's timestamp form: a pattern it can read, not a misspelt one", () => {
    const signedWith = (form: string) =>
      broken(1, {
        profile: {
          preset: 'sandbox',
          signature: { timestamp: { form, travel: { header: 'x-ts' } } },
        },
      });
    expect(verdicts(signedWith('YYYYMMDDHHmmss'))).toMatchObject({ zod: true, jsonSchema: true });
    expect(validate(signedWith('YYYY-MM-DD[T]HH:mm:ss'))).toBe(true);
    expect(validate(signedWith('unix-seconds'))).toBe(true);
    expect(validate(signedWith('YYYYMMDDHHmmsss'))).toBe(false);
    expect(validate(signedWith('rfc-2822'))).toBe(false);
  });
});
