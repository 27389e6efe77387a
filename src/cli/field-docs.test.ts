import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderFieldDocs } from './field-docs';

describe('docs/fields.md', () => {
  it('matches the field catalogs (run `npm run docs:fields` after changing a catalog)', () => {
    const committed = readFileSync(new URL('../../docs/fields.md', import.meta.url), 'utf8');
    expect(committed).toBe(renderFieldDocs());
  });

  it('documents the hourly high/low reading of the bill range and the repeated items', () => {
    const text = renderFieldDocs();
    expect(text).toMatch(/`billrangefrom` \| Bill rate, hourly high/);
    expect(text).toMatch(/`billrangeto` \| Bill rate, hourly low/);
    expect(text).toContain('`skilldescription<n>`');
    expect(text).toContain('`skill<n>response`');
    expect(text).not.toContain('skilldescription2');
  });
});
