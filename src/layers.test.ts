import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { foldersOf, serverConcernProblems, serverConcerns } from '../scripts/boundaries.mjs';
import cruiserConfig from '../scripts/dependency-cruiser.mjs';
import { payloadKinds } from './domain/payload-kind';

// The layers are enforced by lint (eslint.config.js), so a wrong import or a
// cycle fails `npm run lint`. These cases lint real code at the paths it would have.

const root = fileURLToPath(new URL('..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function ruleIds(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('import direction', () => {
  it.each([
    [
      'a feature importing another feature',
      'src/features/candidates/probe.ts',
      "import { requisitionKind } from '@/features/requisitions/kind/requisition-kind';\nexport const probe = requisitionKind;\n",
    ],
    [
      'a feature importing the portal server',
      'src/features/requisitions/probe.ts',
      "import { loadConfig } from '@/server/config';\nexport const probe = loadConfig;\n",
    ],
    [
      'the domain importing the portal server',
      'src/domain/probe.ts',
      "import { loadConfig } from '@/server/config';\nexport const probe = loadConfig;\n",
    ],
    [
      'shared code importing the core',
      'src/shared/probe.ts',
      "import { emptyTray } from '@/core/batch/model/tray-state';\nexport const probe = emptyTray;\n",
    ],
    [
      'the sandbox importing the portal server',
      'src/sandbox/probe.ts',
      "import { loadConfig } from '@/server/config';\nexport const probe = loadConfig;\n",
    ],
    [
      'the portal server reaching into the sandbox past its entry',
      'src/server/probe.ts',
      "import { openSandboxDatabase } from '@/sandbox/database';\nexport const probe = openSandboxDatabase;\n",
    ],
    [
      'production code importing test support',
      'src/core/probe.ts',
      "import { fullRequisitionForm } from '@/test-support/test-data';\nexport const probe = fullRequisitionForm;\n",
    ],
    [
      'a feature folder made after lint was written importing another feature',
      'src/features/brand-new/probe.ts',
      "import { requisitionKind } from '@/features/requisitions/kind/requisition-kind';\nexport const probe = requisitionKind;\n",
    ],
    [
      'a server concern importing one it does not declare (the journal, the proxy)',
      'src/server/journal/probe.ts',
      "import { ConnectionUpstreams } from '@/server/proxy/connection-upstreams';\nexport const probe = ConnectionUpstreams;\n",
    ],
    [
      'a server concern importing one it does not declare, by a type only',
      'src/server/http/probe.ts',
      "import type { PortalAuth } from '@/server/accounts/portal-auth';\nexport type Probe = PortalAuth;\n",
    ],
    [
      'the shared database module importing a concern',
      'src/server/store/probe.ts',
      "import { journalSchema } from '@/server/journal/store/schema';\nexport const probe = journalSchema;\n",
    ],
    [
      'the command line importing the portal server past the connection check',
      'src/cli/probe.ts',
      "import { loadConfig } from '@/server/config';\nexport const probe = loadConfig;\n",
    ],
  ])('fails lint: %s', async (_what, path, code) => {
    expect(await ruleIds(path, code)).toContain('import-x/no-restricted-paths');
  });

  it.each([
    [
      'a feature importing the core, shared code and the domain',
      'src/features/candidates/probe.ts',
      "import { emptyTray } from '@/core/batch/model/tray-state';\nimport { isBlank } from '@/domain';\nimport { newId } from '@/shared/lib/ids';\nexport const probe = [emptyTray, isBlank, newId];\n",
    ],
    [
      'the portal server using the sandbox through its entry',
      'src/server/probe.ts',
      "import { startSandbox } from '@/sandbox/index';\nexport const probe = startSandbox;\n",
    ],
    [
      'a server concern importing one it declares, and the settings',
      'src/server/proxy/probe.ts',
      "import { loadConfig } from '@/server/config';\nimport { CallJournal } from '@/server/journal/call-journal';\nexport const probe = [CallJournal, loadConfig];\n",
    ],
    [
      "a server concern's test setting up another concern",
      'src/server/journal/probe.test.ts',
      "import { ConnectionUpstreams } from '@/server/proxy/connection-upstreams';\nexport const probe = ConnectionUpstreams;\n",
    ],
    [
      'a feature folder made after lint was written importing the core',
      'src/features/brand-new/probe.ts',
      "import { emptyTray } from '@/core/batch/model/tray-state';\nexport const probe = emptyTray;\n",
    ],
    [
      'the command line running the connection check through its entry',
      'src/cli/probe.ts',
      "import { main } from '@/server/doctor/check-command';\nexport const probe = main;\n",
    ],
  ])('passes lint: %s', async (_what, path, code) => {
    expect(await ruleIds(path, code)).toEqual([]);
  });
});

describe('how imports are written', () => {
  it('fails lint on a module of another folder named with ../ instead of @/', async () => {
    const code = "import { isBlank } from '../../domain';\nexport const probe = isBlank;\n";
    expect(await ruleIds('src/features/candidates/probe.ts', code)).toEqual([
      'no-restricted-imports',
    ]);
    // The domain has its own list of forbidden imports; the rule about ../ is in it too.
    const inDomain = "import { x } from '../domain/x';\nexport const probe = x;\n";
    expect(await ruleIds('src/domain/sub/probe.ts', inDomain)).toContain('no-restricted-imports');
  });

  it('fails lint on imports out of their groups or out of alphabetical order', async () => {
    const sibling =
      "import { a } from './a';\nimport { isBlank } from '@/domain';\nexport const probe = [a, isBlank];\n";
    expect(await ruleIds('src/core/probe.ts', sibling)).toContain('import-x/order');
    const unsorted =
      "import { newId } from '@/shared/lib/ids';\nimport { isBlank } from '@/domain';\nexport const probe = [newId, isBlank];\n";
    expect(await ruleIds('src/core/probe.ts', unsorted)).toContain('import-x/order');
  });

  it('still finds a wrong layer when it is named with @/', async () => {
    const code =
      "import { loadConfig } from '@/server/config';\nexport const probe = loadConfig;\n";
    expect(await ruleIds('src/shared/probe.ts', code)).toEqual(['import-x/no-restricted-paths']);
  });
});

describe('cycles', () => {
  const dir = mkdtempSync(join(root, 'src/domain/cycle-probe-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails lint on two modules that import each other', async () => {
    writeFileSync(join(dir, 'a.ts'), "import { b } from './b';\nexport const a = () => b;\n");
    writeFileSync(join(dir, 'b.ts'), "import { a } from './a';\nexport const b = () => a;\n");
    const [result] = await eslint.lintFiles([relative(root, join(dir, 'a.ts'))]);
    expect(result?.messages.map((message) => message.ruleId)).toContain('import-x/no-cycle');
  });
});

describe('server concerns', () => {
  it('lists every folder of src/server, each allowed dependency a concern, with no circle', () => {
    expect(serverConcernProblems()).toEqual([]);
    expect(Object.keys(serverConcerns).sort()).toEqual(foldersOf('server'));
  });

  it('refuses a concern folder the list does not declare, and a circle of declared ones', () => {
    expect(serverConcernProblems([...foldersOf('server'), 'brand-new'])).toEqual([
      'src/server/brand-new is not in serverConcerns (scripts/boundaries.mjs): declare which concerns it may import.',
    ]);
    expect(
      serverConcernProblems(foldersOf('server'), { ...serverConcerns, http: ['accounts'] }),
    ).toEqual(['serverConcerns has a circle: accounts → http → accounts.']);
  });

  describe('the import graph check (npm run lint, dependency-cruiser)', () => {
    const dir = mkdtempSync(join(root, 'src/server/journal/cycle-probe-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('finds a circle made of type-only imports, which import-x/no-cycle skips', async () => {
      writeFileSync(
        join(dir, 'a.ts'),
        "import type { B } from './b';\nexport interface A {\n  b: B;\n}\n",
      );
      writeFileSync(
        join(dir, 'b.ts'),
        "import type { A } from './a';\nexport interface B {\n  a: A | null;\n}\n",
      );
      const probe = relative(root, dir);
      const [lintResult] = await eslint.lintFiles([join(probe, 'a.ts')]);
      expect(lintResult?.messages.map((message) => message.ruleId)).not.toContain(
        'import-x/no-cycle',
      );
      const { output } = await cruise(
        [probe],
        {
          ...cruiserConfig.options,
          ruleSet: { forbidden: cruiserConfig.forbidden ?? [] },
          validate: true,
        },
        undefined,
        { tsConfig: extractTSConfig(join(root, 'tsconfig.json')) },
      );
      if (typeof output === 'string') throw new Error('expected the cruise result as an object');
      expect(output.summary.violations.map((violation) => violation.rule.name)).toContain(
        'no-circular',
      );
    });
  });
});

describe('comments among JSX children', () => {
  const component = (children: string) =>
    `export function Probe() {\n  return (\n    <div>\n${children}\n    </div>\n  );\n}\n`;

  it('fails lint on a // or /* line, which the page would show as text', async () => {
    for (const line of ['      // a note for developers', '      /* a note */']) {
      expect(await ruleIds('src/core/probe.tsx', component(line))).toContain(
        'no-restricted-syntax',
      );
    }
  });

  it('passes lint on a {/* */} comment and on text that merely holds a slash', async () => {
    const children =
      '      {/* a note for developers */}\n      Either one / or the other, see https://example.org';
    expect(await ruleIds('src/core/probe.tsx', component(children))).toEqual([]);
  });
});

describe('payload kinds named in the core', () => {
  // The core reads what differs between kinds from their descriptors; a comparison with a
  // kind's name, for any kind there is, fails lint there.
  it.each(payloadKinds)('fails lint on comparing a kind with "%s" under src/core', async (name) => {
    for (const code of [
      `export const probe = (kind: { id: string }) => kind.id === '${name}';\n`,
      `export const probe = (kind: string) => ('${name}' !== kind ? 1 : 2);\n`,
      `export function probe(kind: string) {\n  switch (kind) {\n    case '${name}':\n      return 1;\n    default:\n      return 2;\n  }\n}\n`,
    ]) {
      expect(await ruleIds('src/core/batch/probe.ts', code)).toContain('no-restricted-syntax');
    }
  });

  it('passes lint on reading a field of the descriptor, and on a kind named outside the core', async () => {
    expect(
      await ruleIds(
        'src/core/batch/probe.ts',
        'export const probe = (kind: { sheet: { requisitionField: string | null } }) =>\n  kind.sheet.requisitionField !== null;\n',
      ),
    ).toEqual([]);
    expect(
      await ruleIds(
        'src/features/candidates/probe.ts',
        "export const probe = (kind: { id: string }) => kind.id === 'candidate';\n",
      ),
    ).toEqual([]);
  });
});

describe('settings read where the process starts', () => {
  const reading = "export const probe = process.env.PROBE === 'on';\n";

  it('fails lint on a setting read deep in the server, the sandbox or the browser code', async () => {
    for (const path of [
      'src/server/proxy/probe.ts',
      'src/server/journal/store/probe.ts',
      'src/sandbox/probe.ts',
      'src/core/batch/probe.ts',
    ]) {
      expect(await ruleIds(path, reading)).toContain('no-restricted-properties');
    }
  });

  it('passes lint on reading one in an entry, a command or a test', async () => {
    for (const path of [
      'src/server/launch.ts',
      'src/sandbox/main.ts',
      'src/server/cli/probe-main.ts',
      'src/cli/probe.ts',
      'src/server/proxy/probe.test.ts',
    ]) {
      expect(await ruleIds(path, reading)).toEqual([]);
    }
  });
});
