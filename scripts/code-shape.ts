/**
 * What `npm run lint` measures of the code's shape beside ESLint: which files are production
 * code, which duplicated blocks are only boilerplate, which feature a file belongs to, and which
 * files are data (exempt from the size limit). The two checks, scripts/duplicates.ts and
 * scripts/file-size.ts, read their rules from here so the test beside this file proves them.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A production file above this many lines fails scripts/file-size.ts (unless it is data). */
export const maxLines = 400;

/** The first line a data file (a seed set, a field catalog) starts with to be exempt. */
export const dataMarker = '// Data:';

/** Production code: src/**\/*.{ts,tsx} except tests and src/test-support. Paths use `/`. */
export function productionFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (isProduction(relative(root, path).split('\\').join('/'))) files.push(path);
    }
  };
  walk(join(root, 'src'));
  return files.map((path) => relative(root, path).split('\\').join('/')).sort();
}

export function isProduction(path: string): boolean {
  return (
    /^src\/.*\.tsx?$/.test(path) &&
    !/\.test\.tsx?$/.test(path) &&
    !path.startsWith('src/test-support/') &&
    !path.endsWith('.d.ts')
  );
}

/** Lines as `wc -l` and an editor count them: a final newline does not start a line. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  const lines = text.split('\n').length;
  return text.endsWith('\n') ? lines - 1 : lines;
}

export function isData(text: string): boolean {
  return text.startsWith(dataMarker);
}

/**
 * Statements that are only wiring or a type's shape, whose repetition has no logic to share:
 * imports, re-exports (`export { a } from`, `export * from`, `export { a, b }`) and type-only
 * declarations (`type`, `interface`). Nothing else is boilerplate: a function, a constant, a
 * JSX block or an object literal that two files repeat is counted, however plain.
 */
const boilerplateKinds = new Set<ts.SyntaxKind>([
  ts.SyntaxKind.ImportDeclaration,
  ts.SyntaxKind.ImportEqualsDeclaration,
  ts.SyntaxKind.ExportDeclaration,
  ts.SyntaxKind.TypeAliasDeclaration,
  ts.SyntaxKind.InterfaceDeclaration,
]);

/**
 * Whether the lines `start`..`end` (1-based, inclusive) of a source file touch only boilerplate
 * statements (see above). Comments and blank lines between them do not count either way; a block
 * that touches no statement at all (only comments) is not boilerplate.
 */
export function isBoilerplate(fileName: string, text: string, start: number, end: number): boolean {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const touched = source.statements.filter(
    (statement) => lineOf(statement.getStart(source)) <= end && lineOf(statement.end) >= start,
  );
  return touched.length > 0 && touched.every((statement) => boilerplateKinds.has(statement.kind));
}

/**
 * The feature a file belongs to for the cross-feature count: `features/<name>` for a feature,
 * `app` for the app's pages and routes, undefined for every other layer (domain, shared, core,
 * server, sandbox, node, cli), whose clones with a feature are counted only once, in (a).
 */
export function featureOf(path: string): string | undefined {
  const feature = /^src\/features\/([^/]+)\//.exec(path);
  if (feature) return `features/${feature[1]}`;
  return path.startsWith('src/app/') ? 'app' : undefined;
}

/** Whether a clone lies between two different features, or a feature and the app. */
export function isCrossFeature(first: string, second: string): boolean {
  const a = featureOf(first);
  const b = featureOf(second);
  if (a === undefined || b === undefined || a === b) return false;
  return a.startsWith('features/') || b.startsWith('features/');
}
