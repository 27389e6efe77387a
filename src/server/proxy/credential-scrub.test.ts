import { describe, expect, it } from 'vitest';
import { CredentialScrubber, scrub, scrubText, secretNeedles } from './credential-scrub';

const needles = secretNeedles(['key-123456', 'secret-abcdef', null, 'abc']);

describe('scrub', () => {
  it('returns the same buffer when there is nothing to replace', () => {
    const bytes = Buffer.from('nothing here, abc included');
    expect(scrub(bytes, needles)).toBe(bytes);
  });

  it('replaces secrets in text too', () => {
    expect(scrubText('/api/vms/requisitions?x=secret-abcdef', needles)).toBe(
      '/api/vms/requisitions?x=[redacted]',
    );
  });

  it('finds a secret JSON-escaped and percent-encoded as well as it is', () => {
    const secret = 'a"b\\c/d e+f';
    const forms = secretNeedles([secret]).map((needle) => needle.toString('utf8'));
    expect(forms).toEqual(['a"b\\c/d e+f', 'a\\"b\\\\c/d e+f', 'a%22b%5Cc%2Fd%20e%2Bf']);
    const body = Buffer.from(
      JSON.stringify({ raw: secret, url: `?s=${encodeURIComponent(secret)}` }),
    );
    expect(scrub(body, secretNeedles([secret])).toString('utf8')).toBe(
      '{"raw":"[redacted]","url":"?s=[redacted]"}',
    );
  });
});

describe('CredentialScrubber', () => {
  const scrubber = new CredentialScrubber(['key-123456', 'secret-abcdef']);
  const signature = 'f'.repeat(64);

  it('cleans the body and headers of the key, the secret and that call’s signature', () => {
    const answer = scrubber.answer(
      { 'content-type': 'text/plain', 'retry-after': signature },
      Buffer.from(`bad key-123456 / secret-abcdef / ${signature}`),
      signature,
    );
    expect(answer.body.toString('utf8')).toBe('bad [redacted] / [redacted] / [redacted]');
    expect(answer.headers).toEqual({ 'content-type': 'text/plain', 'retry-after': '[redacted]' });
    expect(answer.redacted).toBe(true);
  });

  it('passes a clean answer on as the same buffer, and an older signature is not this call’s', () => {
    const body = Buffer.from(`[{"Status":"Success","Note":"${'e'.repeat(64)}"}]`);
    const answer = scrubber.answer({ 'content-type': 'application/json' }, body, signature);
    expect(answer.body).toBe(body);
    expect(answer.redacted).toBe(false);
  });

  it('says redacted when only a header held a credential', () => {
    const answer = scrubber.answer({ 'retry-after': 'key-123456' }, Buffer.from('{}'), null);
    expect(answer.redacted).toBe(true);
    expect(answer.body.toString()).toBe('{}');
  });
});
