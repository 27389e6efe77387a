/**
 * Copy/paste in production code, found by jscpd (settings in .jscpd.json: src/**\/*.{ts,tsx}
 * without tests and src/test-support, blocks of 6 lines or more). Of the blocks it finds, two are
 * counted, each with a limit above which this fails:
 *  (a) blocks that are not boilerplate (scripts/code-shape.ts says exactly what boilerplate is:
 *      imports, re-exports and type-only declarations): at most 14, below the target of 15, which
 *      the code now meets; the limit is only ever lowered (decision 049);
 *  (b) of those, blocks between two different features, or a feature and the app, at most 5:
 *      what two features share belongs in src/shared or src/core, where both can import it.
 * Each counted block is printed with both places, file:line, so it can be found and shared.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { z } from 'zod';
import { isBoilerplate, isCrossFeature, isProduction } from './code-shape';

/** (a) stands where the code is, below the target of 15, and is only lowered (decision 049). */
const limits = { notBoilerplate: 14, crossFeature: 5 };
const root = join(import.meta.dirname, '..');

const placeSchema = z.object({ name: z.string(), start: z.number(), end: z.number() });
const reportSchema = z.object({
  duplicates: z.array(
    z.object({ lines: z.number(), firstFile: placeSchema, secondFile: placeSchema }),
  ),
});

const output = mkdtempSync(join(tmpdir(), 'duplicates-'));
let report: z.infer<typeof reportSchema>;
try {
  execFileSync(
    join(root, 'node_modules', '.bin', 'jscpd'),
    [
      '--config',
      '.jscpd.json',
      '--reporters',
      'json',
      '--output',
      output,
      '--absolute',
      '--silent',
      'src',
    ],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] },
  );
  report = reportSchema.parse(JSON.parse(readFileSync(join(output, 'jscpd-report.json'), 'utf8')));
} finally {
  rmSync(output, { recursive: true, force: true });
}

const texts = new Map<string, string>();
const textOf = (path: string) => {
  let text = texts.get(path);
  if (text === undefined) {
    text = readFileSync(join(root, path), 'utf8');
    texts.set(path, text);
  }
  return text;
};

type Place = z.infer<typeof placeSchema>;
const boilerplateAt = (path: string, place: Place) =>
  isBoilerplate(path, textOf(path), place.start, place.end);

const counted: { lines: number; first: string; second: string; crossFeature: boolean }[] = [];
let boilerplate = 0;
for (const clone of report.duplicates) {
  const first = relative(root, clone.firstFile.name).split('\\').join('/');
  const second = relative(root, clone.secondFile.name).split('\\').join('/');
  // The ignore globs in .jscpd.json say the same; this keeps a test file out if they drift.
  if (!isProduction(first) || !isProduction(second)) continue;
  if (boilerplateAt(first, clone.firstFile) && boilerplateAt(second, clone.secondFile)) {
    boilerplate += 1;
    continue;
  }
  counted.push({
    lines: clone.lines,
    first: `${first}:${clone.firstFile.start}`,
    second: `${second}:${clone.secondFile.start}`,
    crossFeature: isCrossFeature(first, second),
  });
}

const crossFeature = counted.filter((clone) => clone.crossFeature);
const line = (clone: (typeof counted)[number]) =>
  `  ${clone.lines} lines  ${clone.first}  ${clone.second}${clone.crossFeature ? '  (between features)' : ''}`;
console.log(
  `duplicates: ${report.duplicates.length} duplicated blocks of 6+ lines in production code, ${boilerplate} of them boilerplate (imports, re-exports, types).`,
);
console.log(
  `  (a) not boilerplate: ${counted.length} (limit ${limits.notBoilerplate}); (b) between features: ${crossFeature.length} (limit ${limits.crossFeature})`,
);
for (const clone of counted) console.log(line(clone));

const failures: string[] = [];
if (counted.length > limits.notBoilerplate)
  failures.push(
    `${counted.length} duplicated blocks that are not boilerplate, over the limit of ${limits.notBoilerplate}`,
  );
if (crossFeature.length > limits.crossFeature)
  failures.push(
    `${crossFeature.length} duplicated blocks between features, over the limit of ${limits.crossFeature}`,
  );
if (failures.length > 0) {
  console.error(
    `duplicates: ${failures.join('; ')}. Make one piece serve both places listed above: a piece two features share goes in src/shared (no domain knowledge) or src/core (a workspace), see docs/style.md.`,
  );
  process.exit(1);
}
