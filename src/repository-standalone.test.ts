import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The repository has to explain itself to someone who has only cloned it: the code, the tests,
// the benchmarks and docs/ may point to the decision records in docs/decisions/, to the guides
// in docs/ and to each other, but not to an issue tracker or to notes kept beside the repository
// (the interface's specification file, the design notes, the notes on the real service). Such a
// pointer reads as an explanation and leads nowhere; the fact it stood for belongs in the text.

const root = fileURLToPath(new URL('..', import.meta.url));
const scanned = [
  'src',
  'e2e',
  'scripts',
  'bench',
  'docs',
  'README.md',
  '.ci',
  'eslint.config.js',
  'vite.config.ts',
  'playwright.config.ts',
  'package.json',
];
/** This file names the citations it looks for. */
const self = 'src/repository-standalone.test.ts';

/** Files that are not prose or code: images, spreadsheets, fonts, archives, lockfiles. */
const notText =
  /\.(png|jpe?g|gif|webp|avif|ico|bmp|pdf|xlsx?|ods|zip|gz|tgz|br|woff2?|ttf|otf|eot|wasm|db|sqlite)$/i;
const lockfile = /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml)$/;

const tracked = execFileSync('git', ['ls-files', '-z', '--', ...scanned], {
  cwd: root,
  encoding: 'utf8',
})
  .split('\0')
  .filter((path) => path !== '');

/** Every tracked file's name, lowercased: a name the repository has is not a pointer outside it. */
const trackedNames = new Set(
  execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .map((path) => basename(path).toLowerCase()),
);

interface Citation {
  what: string;
  pattern: RegExp;
}

// The notes kept beside the repository, by the names the text used for them: bare or at the end
// of any path ("decisions.md", "design/decisions.md", "Architecture.md", "vms-api-notes" without
// its extension). docs/decisions/NNN-title.md is not one of these names.
const outsideNotes: (Citation & { name: string })[] = [
  {
    name: 'decisions.md',
    what: 'a note outside the repository',
    pattern: /(?<![\w-])decisions\.md\b/i,
  },
  {
    name: 'architecture.md',
    what: 'a note outside the repository',
    pattern: /(?<![\w-])architecture\.md\b/i,
  },
  { name: 'style.md', what: 'a note outside the repository', pattern: /(?<![\w-])style\.md\b/i },
  {
    name: 'vms-api-notes.md',
    what: 'a note outside the repository',
    pattern: /(?<![\w-])vms-api-notes\b/i,
  },
];

const citations: Citation[] = [
  // "issue 11", "Issue 15, point 2", "issues 3 and 4", "issue #9". The number must end at a word
  // boundary, so "issue 2xx statuses" is not read as an issue number.
  { what: 'an issue number', pattern: /\bissues? #?\d+\b/i },
  // The specification's file, whatever path leads to it.
  { what: "the specification's file", pattern: /000_4f2887db2c22a6c1/ },
  // The folder beside the repository. `../shared/api/http` and the like import src/shared, part
  // of the repository, so only the outside folder's own subfolders count.
  { what: 'the folder beside the repository', pattern: /(?:\.\.\/)+shared\/(?:spec|design)\b/ },
  // Were the repository to gain a file of one of these names, citing it would be fine.
  ...outsideNotes.filter(({ name }) => !trackedNames.has(name)),
];

interface Finding {
  file: string;
  line: number;
  cites: string;
  /** The text the pattern matched, e.g. "Issue 15". */
  match: string;
  text: string;
}

function findingsIn(file: string): Finding[] {
  const bytes = readFileSync(join(root, file));
  // A NUL in the first bytes means a binary file whatever its name says.
  if (bytes.subarray(0, 8000).includes(0)) return [];
  return bytes
    .toString('utf8')
    .split(/\r?\n/)
    .flatMap((text, index) =>
      // Every match, not only a line's first.
      citations.flatMap(({ what, pattern }) =>
        [...text.matchAll(new RegExp(pattern.source, `${pattern.flags}g`))].map(([match]) => ({
          file,
          line: index + 1,
          cites: what,
          match,
          text,
        })),
      ),
    );
}

const findings = tracked
  .filter((file) => file !== self && !notText.test(file) && !lockfile.test(file))
  .flatMap(findingsIn);

describe('the repository stands alone', () => {
  it('reads the files it is meant to', () => {
    // A wrong root or an empty listing would pass every check below without reading anything.
    for (const file of ['README.md', 'docs/sandbox.md', 'e2e/import.spec.ts', 'bench/index.ts']) {
      expect(tracked).toContain(file);
    }
  });

  it.each([
    'issue 11',
    'the closing notes of Issue 15, point 2',
    'issues #3 and 4',
    '(../shared/spec/000_4f2887db2c22a6c1.txt)',
    '`../../shared/design/decisions.md`',
    '(decisions.md, "who may act for whom")',
    'Decisions.md, "Data never lost"',
    'the gateway, as vms-api-notes.md says',
    'the real gateway (vms-api-notes)',
  ])('reads %j as a citation', (text) => {
    expect(citations.some(({ pattern }) => pattern.test(text))).toBe(true);
  });

  it.each([
    'an issue 2xx status',
    'tissue 5',
    "import { requestJson } from '../../shared/api/http';",
    '[022](docs/decisions/022-volume.md)',
    '[decision 031](decisions/031-connections-and-profiles.md)',
    // docs/architecture.md and docs/style.md are in the repository: naming them is a link.
    'the layers ([architecture](docs/architecture.md), [style](docs/style.md))',
    'src/styles/app.css',
    // The repository has its own docs/architecture.md: a name it has is no pointer outside it.
    'the map of the parts: [architecture.md](../architecture.md)',
  ])('does not read %j as a citation', (text) => {
    expect(citations.some(({ pattern }) => pattern.test(text))).toBe(false);
  });

  it('cites no issue number and no file outside the repository', () => {
    expect(
      findings.map(
        ({ file, line, cites, match, text }) =>
          `${file}:${line}: ${cites} ("${match}"): ${text.trim()}`,
      ),
    ).toEqual([]);
  });
});
