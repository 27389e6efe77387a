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
const scanned = ['src', 'e2e', 'scripts', 'bench', 'docs', 'README.md'];
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
      // Every match, not only a line's first: a pending "Issue 10" must not excuse an "issue 12"
      // added beside it.
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

/**
 * Citations in src/ that this change leaves alone, because src/ is being reworded separately:
 * comments in tests, the catalog and the styles that still name the issue that asked for them or
 * the specification's file. Each goes, entry by entry, when its file no longer cites it, and the
 * last test below says when. Nothing is to be added here: a new citation is written as the fact it
 * stands for.
 */
const pendingInSrc: Record<string, string[]> = {
  'src/domain/catalog.test.ts': ['000_4f2887db2c22a6c1', '../shared/spec'],
  'src/domain/requisition-catalog.ts': ['../shared/spec'],
  'src/layers.test.ts': ['Issue 10'],
  'src/server/auth/csrf.test.ts': ['Issue 15'],
  'src/server/auth/roles.test.ts': ['Issue 15'],
  'src/server/auth/sessions.test.ts': ['Issue 15'],
  'src/server/auth/sign-in.test.ts': ['Issue 15'],
  'src/server/auth/sso.test.ts': ['Issue 15'],
  'src/server/auth/user-records.test.ts': ['Issue 15'],
  'src/server/auth/users-api.test.ts': ['Issue 15'],
  'src/server/cli/users.test.ts': ['Issue 15'],
  'src/server/config-docs.test.ts': ['Issue 10'],
  'src/server/hostile-requests.test.ts': ['Issue 9'],
  'src/server/journal/curl.test.ts': ['Issue 14'],
  'src/server/journal/journal-routes.test.ts': ['Issue 14'],
  'src/server/sandbox-full-disk.test.ts': ['Issue 9'],
  'src/server/two-processes.test.ts': ['Issue 15'],
  'src/server/vms-proxy-journal-failures.test.ts': ['Issue 14'],
  'src/server/vms-proxy-journal.test.ts': ['Issue 14'],
  'src/server/vms-proxy-lost-answers.test.ts': ['Issue 9'],
  'src/styles/app.css': ['issue 9', 'issue 13', 'issue 14'],
};

const findings = tracked
  .filter((file) => file !== self && !notText.test(file) && !lockfile.test(file))
  .flatMap(findingsIn);

// Each pending entry excuses one finding of exactly that text in its file; what is left on
// either side is reported.
const unexcused: Finding[] = [];
const excuses = new Map(Object.entries(pendingInSrc).map(([file, list]) => [file, [...list]]));
for (const finding of findings) {
  const left = excuses.get(finding.file) ?? [];
  const at = left.indexOf(finding.match);
  if (at === -1) unexcused.push(finding);
  else left.splice(at, 1);
}

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
    'Architecture.md, "Data never lost"',
    'layers (architecture.md, style.md)',
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
    'src/styles/app.css',
  ])('does not read %j as a citation', (text) => {
    expect(citations.some(({ pattern }) => pattern.test(text))).toBe(false);
  });

  it('cites no issue number and no file outside the repository', () => {
    expect(
      unexcused.map(
        ({ file, line, cites, match, text }) =>
          `${file}:${line}: ${cites} ("${match}"): ${text.trim()}`,
      ),
    ).toEqual([]);
  });

  it('lists as pending in src/ only what src/ still cites', () => {
    const stale = [...excuses].flatMap(([file, left]) =>
      left.map((match) => `${file} no longer cites "${match}": remove it from pendingInSrc`),
    );
    expect(stale).toEqual([]);
  });
});
