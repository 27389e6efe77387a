import { describe, expect, it } from 'vitest';
import {
  featureOf,
  isBoilerplate,
  isCrossFeature,
  isData,
  isProduction,
  lineCount,
} from './code-shape';

const source = [
  "import { a } from './a';", // 1
  'import {', // 2
  '  b,', // 3
  '  c,', // 4
  "} from './bc';", // 5
  '', // 6
  '/** A shape. */', // 7
  'export interface Row {', // 8
  '  id: string;', // 9
  '}', // 10
  'export type Rows = Row[];', // 11
  "export { a, b } from './ab';", // 12
  'export function total(rows: Rows): number {', // 13
  '  return rows.length;', // 14
  '}', // 15
  '// only a comment', // 16
].join('\n');

describe('boilerplate', () => {
  it.each([
    ['an import block', 1, 5],
    ['imports, a comment and an interface', 2, 10],
    ['type declarations and a re-export', 8, 12],
  ])('%s is boilerplate', (_name, start, end) => {
    expect(isBoilerplate('probe.ts', source, start, end)).toBe(true);
  });

  it.each([
    ['a re-export followed by a function', 11, 14],
    ['the body of a function', 14, 15],
    ['imports running into a function', 1, 13],
    ['a comment alone', 16, 16],
  ])('%s is not boilerplate', (_name, start, end) => {
    expect(isBoilerplate('probe.ts', source, start, end)).toBe(false);
  });
});

describe('features', () => {
  it('names the feature of a file, the app, or none for the other layers', () => {
    expect(featureOf('src/features/audit/components/audit-page.tsx')).toBe('features/audit');
    expect(featureOf('src/app/routes/audit-route.tsx')).toBe('app');
    expect(featureOf('src/core/batch/components/batch-results.tsx')).toBeUndefined();
    expect(featureOf('src/server/audit/audit-routes.ts')).toBeUndefined();
  });

  it.each([
    ['src/features/audit/a.tsx', 'src/features/inspector/b.tsx', true],
    ['src/features/audit/a.tsx', 'src/app/routes/b.tsx', true],
    ['src/features/audit/a.tsx', 'src/features/audit/b.tsx', false],
    ['src/app/routes/a.tsx', 'src/app/routes/b.tsx', false],
    ['src/features/audit/a.tsx', 'src/core/batch/b.tsx', false],
    ['src/server/audit/a.ts', 'src/server/journal/b.ts', false],
  ])('%s and %s: between features %s', (first, second, expected) => {
    expect(isCrossFeature(first, second)).toBe(expected);
  });
});

describe('production files', () => {
  it.each([
    ['src/domain/suite.ts', true],
    ['src/app/app.tsx', true],
    ['src/domain/suite.test.ts', false],
    ['src/app/hydration.test.tsx', false],
    ['src/test-support/test-data.ts', false],
    ['scripts/duplicates.ts', false],
    ['src/styles/app.css', false],
  ])('%s: %s', (path, expected) => {
    expect(isProduction(path)).toBe(expected);
  });
});

describe('size', () => {
  it('counts lines as an editor does', () => {
    expect(lineCount('')).toBe(0);
    expect(lineCount('a')).toBe(1);
    expect(lineCount('a\n')).toBe(1);
    expect(lineCount('a\nb\n')).toBe(2);
    expect(lineCount('a\n\n')).toBe(2);
  });

  it('exempts a file only when its first line says it is data', () => {
    expect(isData('// Data: the seed requisitions.\nexport const seed = [];\n')).toBe(true);
    expect(isData('import { a } from "./a";\n// Data: too late.\n')).toBe(false);
    expect(isData('// A catalog of fields.\n')).toBe(false);
  });
});
