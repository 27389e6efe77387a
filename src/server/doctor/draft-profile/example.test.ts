import { describe, expect, it } from 'vitest';
import type { SignatureRecipe } from '@/domain/vms-profile';
import { signRequest } from '@/node/signature';
import { readSignatureExample, recipesFromExample } from './example';

/*
 * A signed example read into the recipe that made it: the example is signed here by the portal's
 * own signer with a known recipe, as a VMS's client would have signed it, and must be read back
 * into that recipe, headers and the timestamp's travel included.
 */

const apiKey = 'acme-key-31f0';
const secret = 'acme-secret-9b7e22';
const at = Date.parse('2026-03-15T14:30:00Z');

function signedWith(recipe: SignatureRecipe, body = '') {
  return signRequest(recipe, { apiKey, secret, now: at, body });
}

describe('recipesFromExample', () => {
  it('finds a timestamp that travels in the query, with its parameter name', () => {
    const recipe: SignatureRecipe = {
      hash: 'hmac-sha512',
      order: ['timestamp', 'key'],
      timestamp: { form: 'unix-milliseconds', travel: { query: 'ts' } },
      encoding: 'HEX',
      keyHeader: 'x-acme-key',
      signatureHeader: 'x-acme-signature',
    };
    const signed = signedWith(recipe);
    const found = recipesFromExample(
      {
        method: 'GET',
        path: `/v1/requisitions?org=1001&ts=${signed.query.ts ?? ''}`,
        headers: signed.headers,
      },
      apiKey,
      secret,
    );
    expect(found).toEqual({
      recipes: [recipe],
      how: "the example's x-acme-signature header, with the key in x-acme-key and the timestamp in the ts query parameter",
    });
  });

  it('finds a pattern timestamp sent in a header, as the example wrote it', () => {
    const recipe: SignatureRecipe = {
      hash: 'sha512',
      order: ['key', 'timestamp', 'secret'],
      timestamp: { form: 'YYYY-MM-DD HH:mm:ss', travel: { header: 'x-acme-time' } },
      encoding: 'hex',
      keyHeader: 'x-acme-key',
      signatureHeader: 'x-acme-signature',
    };
    const signed = signedWith(recipe);
    expect(signed.headers['x-acme-time']).toBe('2026-03-15 14:30:00');
    const found = recipesFromExample(
      { method: 'GET', path: '/v1/requisitions', headers: signed.headers },
      apiKey,
      secret,
    );
    expect(found).toEqual({
      recipes: [recipe],
      how: "the example's x-acme-signature header, with the key in x-acme-key and the timestamp in the x-acme-time header",
    });
  });

  it('takes the timestamp signed from the file when the call did not send it, and signs the body', () => {
    const recipe: SignatureRecipe = {
      hash: 'sha256',
      order: ['key', 'secret', 'timestamp', 'body'],
      timestamp: { form: 'iso-8601', travel: 'none' },
      encoding: 'base64',
      keyHeader: 'x-api-key',
      signatureHeader: 'x-signature',
    };
    const body = '[{"titlerole":"Nurse"}]';
    const signed = signedWith(recipe, body);
    const found = recipesFromExample(
      {
        method: 'POST',
        path: '/requisitionimport',
        headers: signed.headers,
        body,
        timestamp: '2026-03-15T14:30:00Z',
      },
      apiKey,
      secret,
    );
    expect(found).toMatchObject({ recipes: [recipe] });
  });

  it('says what is missing when the call sent no timestamp and the file gives none', () => {
    const signed = signedWith({
      hash: 'sha256',
      order: ['key', 'secret', 'timestamp'],
      timestamp: { form: 'unix-seconds', travel: 'none' },
      encoding: 'hex',
      keyHeader: 'x-api-key',
      signatureHeader: 'x-signature',
    });
    expect(
      recipesFromExample(
        { method: 'GET', path: '/requisitions', headers: signed.headers },
        apiKey,
        secret,
      ),
    ).toEqual({
      problem:
        'the example sent no timestamp in a header or the query: give the one signed as "timestamp"',
    });
  });
});

describe('readSignatureExample', () => {
  it('names each wrong key of the file', () => {
    expect(readSignatureExample({ method: 'FETCH', path: '', headers: [] })).toEqual({
      problem:
        'method must be GET, POST, PUT, PATCH or DELETE; path must not be empty; headers must be an object of the header names and values sent',
    });
  });
});
