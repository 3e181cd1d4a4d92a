// The project's lint configuration (eslint.config.mjs) on small files at virtual paths: each import
// boundary of the layers fails where it is crossed and passes where the layers allow the import. The
// snippets import real files, so the boundary rule resolves them as it resolves the tree's own imports.
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '..', '..', '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The rules that report on `code` placed at `path` (relative to the checkout), with their messages. */
async function problems(path: string, code: string): Promise<Array<{ rule: string | null; message: string }>> {
  const [result] = await eslint.lintText(code, { filePath: resolve(ROOT, path) });
  expect(result, 'ESLint linted the snippet').toBeDefined();
  return result!.messages.map((m) => ({ rule: m.ruleId, message: m.message }));
}

const rules = async (path: string, code: string): Promise<Array<string | null>> => (await problems(path, code)).map((p) => p.rule);

describe('lint: the import boundaries fail where a layer is crossed', () => {
  it('core never imports electron', async () => {
    expect(await rules('src-main/core/proxy/lint-probe.ts', "import { app } from 'electron';\nexport const a = app;\n")).toEqual(['no-restricted-imports']);
  });

  it('core outside core/desk never imports core/desk', async () => {
    expect(await rules('src-main/core/proxy/lint-probe.ts', "import { createDesk } from '../desk';\nexport const c = createDesk;\n")).toEqual([
      'boundaries/dependencies',
    ]);
  });

  it('the renderer never imports core', async () => {
    const found = await problems(
      'src-renderer/features/captures/lint-probe.ts',
      "import { sign } from '../../../src-main/core/signing';\nexport const s = sign;\n",
    );
    expect(found).toEqual([{ rule: 'boundaries/dependencies', message: 'the renderer imports only src-main/shared' }]);
  });

  it('the renderer never imports Node built-ins or electron', async () => {
    const code =
      "import { readFileSync } from 'node:fs';\nimport { join } from 'path';\nimport { ipcRenderer } from 'electron';\nexport const x = [readFileSync, join, ipcRenderer];\n";
    expect(await rules('src-renderer/store/lint-probe.ts', code)).toEqual(['no-restricted-imports', 'no-restricted-imports', 'no-restricted-imports']);
  });

  it('a store slice never imports a feature folder', async () => {
    const found = await problems(
      'src-renderer/store/lint-probe.ts',
      "import { StatusBar } from '../features/status-bar/StatusBar';\nexport const s = StatusBar;\n",
    );
    expect(found).toEqual([{ rule: 'boundaries/dependencies', message: expect.stringContaining('store slice never imports a feature folder') }]);
  });

  it('shared imports no core and no Node built-in', async () => {
    const code = "import { createHash } from 'node:crypto';\nimport { sign } from '../core/signing';\nexport const x = [createHash, sign];\n";
    expect(await rules('src-main/shared/lint-probe.ts', code)).toEqual(['no-restricted-imports', 'boundaries/dependencies']);
  });

  it('core/desk never imports a shell, and the shells never import each other', async () => {
    expect(await rules('src-main/core/desk/lint-probe.ts', "import { run } from '../../cli/main';\nexport const r = run;\n")).toEqual([
      'boundaries/dependencies',
    ]);
    expect(await rules('src-main/electron/lint-probe.ts', "import { run } from '../cli/main';\nexport const r = run;\n")).toEqual(['boundaries/dependencies']);
  });

  it('a shell reaches core only through core/desk', async () => {
    expect(await rules('src-main/electron/lint-probe.ts', "import { sign } from '../core/signing';\nexport const s = sign;\n")).toEqual([
      'boundaries/dependencies',
    ]);
    expect(await rules('src-main/cli/lint-probe.ts', "import { sign } from '../core/signing';\nexport const s = sign;\n")).toEqual(['boundaries/dependencies']);
  });

  it('the preload imports only shared and electron', async () => {
    const code = "import { join } from 'node:path';\nimport { createDesk } from '../core/desk';\nexport const x = [join, createDesk];\n";
    expect(await rules('src-main/preload/lint-probe.ts', code)).toEqual(['no-restricted-imports', 'boundaries/dependencies']);
  });

  it.each([
    [
      'store/postgres never imports store/sqlite',
      'src-main/core/store/postgres/lint-probe.ts',
      "import { openStore } from '../sqlite';\nexport const x = openStore;\n",
    ],
    [
      'store/sqlite never imports store/postgres',
      'src-main/core/store/sqlite/lint-probe.ts',
      "import { connectPostgres } from '../postgres';\nexport const x = connectPostgres;\n",
    ],
    [
      "the store's contract never imports an engine",
      'src-main/core/store/contract/lint-probe.ts',
      "import { openStore } from '../sqlite';\nexport const x = openStore;\n",
    ],
    [
      'the shared rows never import an engine',
      'src-main/core/store/rows/lint-probe.ts',
      "import { connectPostgres } from '../postgres';\nexport const x = connectPostgres;\n",
    ],
    [
      "the proxy never imports an engine's folder",
      'src-main/core/proxy/lint-probe.ts',
      "import { GroupCommit } from '../store/sqlite/group-commit';\nexport const x = GroupCommit;\n",
    ],
    ['a shell never imports an engine', 'src-main/cli/lint-probe.ts', "import { openStore } from '../core/store/sqlite';\nexport const x = openStore;\n"],
  ])('%s', async (_name, path, code) => {
    expect(await rules(path, code)).toEqual(['boundaries/dependencies']);
  });

  it.each([
    [
      'a desk part outside the composition root never imports an engine',
      'src-main/core/desk/profiles-part.ts',
      "import { ProfileStore } from '../store/sqlite';\nexport const x = ProfileStore;\n",
    ],
    [
      'the secret look-ups never import an engine',
      'src-main/core/secrets/lint-probe.ts',
      "import { ProfileStore } from '../store/sqlite/profiles';\nexport const x = ProfileStore;\n",
    ],
    [
      'a feature never imports the team engine',
      'src-main/core/outbound/lint-probe.ts',
      "import { TeamLog } from '../store/postgres';\nexport const x = TeamLog;\n",
    ],
    [
      'checks never import the copy between engines',
      'src-main/core/checks/lint-probe.ts',
      "import { copyTables } from '../store/copy';\nexport const x = copyTables;\n",
    ],
  ])('outside core/store, the store is its contract: %s', async (_name, path, code) => {
    expect(await problems(path, code)).toEqual([{ rule: 'boundaries/dependencies', message: expect.stringContaining("never an engine's folder") }]);
  });
});

describe("lint: the core's layers fail where a layer imports one above it or beside it", () => {
  const layered = async (path: string, code: string): Promise<void> => {
    expect(await problems(path, code)).toEqual([
      { rule: 'boundaries/dependencies', message: expect.stringContaining("the core's layers (docs/ARCHITECTURE-LAYERS.md)") },
    ]);
  };

  it.each([
    ['base never imports protocol', 'src-main/core/lint-probe.ts', "import { inspect } from './protocol';\nexport const x = inspect;\n"],
    [
      "base (result.ts) never reads the store's error texts",
      'src-main/core/lint-probe.ts',
      "import { explainStorageFailure } from './store/sqlite/open-errors';\nexport const x = explainStorageFailure;\n",
    ],
    ['protocol never imports signing', 'src-main/core/protocol/lint-probe.ts', "import { sign } from '../signing';\nexport const x = sign;\n"],
    ['signing never imports redaction', 'src-main/core/signing/lint-probe.ts', "import { redactText } from '../redact';\nexport const x = redactText;\n"],
    ['redaction never imports capture', 'src-main/core/redact/lint-probe.ts', "import { judge } from '../capture';\nexport const x = judge;\n"],
    [
      'capture never imports the store',
      'src-main/core/capture/lint-probe.ts',
      "import { errorCount } from '../store/rows/exchange-values';\nexport const x = errorCount;\n",
    ],
    [
      'the sandbox never imports the store',
      'src-main/core/sandbox/lint-probe.ts',
      "import { openStore } from '../store/sqlite';\nexport const x = openStore;\n",
    ],
    [
      'the store never imports balance',
      'src-main/core/store/sqlite/lint-probe.ts',
      "import { readBalance } from '../../balance';\nexport const x = readBalance;\n",
    ],
    [
      'the store never imports the secret look-ups',
      'src-main/core/store/contract/lint-probe.ts',
      "import { createSecretCache } from '../../secrets';\nexport const x = createSecretCache;\n",
    ],
    ['secrets never import outbound', 'src-main/core/secrets/lint-probe.ts', "import { toPairs } from '../outbound/headers';\nexport const x = toPairs;\n"],
    ['outbound never imports the proxy', 'src-main/core/outbound/lint-probe.ts', "import { flatten } from '../proxy/headers';\nexport const x = flatten;\n"],
    ['the proxy never imports checks', 'src-main/core/proxy/lint-probe.ts', "import { judgeStep } from '../checks/judge';\nexport const x = judgeStep;\n"],
    ['capture never imports the sandbox beside it', 'src-main/core/capture/lint-probe.ts', "import { money } from '../sandbox';\nexport const x = money;\n"],
    [
      'the proxy never imports balance beside it',
      'src-main/core/proxy/lint-probe.ts',
      "import { readBalance } from '../balance';\nexport const x = readBalance;\n",
    ],
    [
      'a core folder no layer names is base until it gets one',
      'src-main/core/lint-probe-folder/lint-probe.ts',
      "import { sign } from '../signing';\nexport const x = sign;\n",
    ],
  ])('%s', async (_name, path, code) => {
    await layered(path, code);
  });
});

describe('lint: the imports the layers allow pass', () => {
  it.each([
    [
      'the renderer imports shared, its own files and npm packages',
      'src-renderer/features/captures/lint-probe.ts',
      "import { create } from 'zustand';\nimport type { ExchangeSummary } from '../../../src-main/shared/model';\nimport { useDesk } from '../../store';\nexport const x: [typeof create, ExchangeSummary | null, typeof useDesk] = [create, null, useDesk];\n",
    ],
    [
      'a store slice imports shared and the renderer components',
      'src-renderer/store/lint-probe.ts',
      "import { compactBase64 } from '../../src-main/shared/base64';\nimport { base64OfText } from '../components/body-codec';\nexport const x = [compactBase64, base64OfText];\n",
    ],
    [
      'core imports shared, other core folders and Node',
      'src-main/core/proxy/lint-probe.ts',
      "import { readFileSync } from 'node:fs';\nimport { sign } from '../signing';\nimport { compactBase64 } from '../../shared/base64';\nexport const x = [readFileSync, sign, compactBase64];\n",
    ],
    [
      'an engine imports the contract and the shared rows',
      'src-main/core/store/postgres/lint-probe.ts',
      "import type { ExchangeLog } from '../contract/exchange-log';\nimport { isTextSearch } from '../rows/search-kind';\nexport const x: [ExchangeLog | null, unknown] = [null, isTextSearch];\n",
    ],
    [
      'the composition root opens the engines',
      'src-main/core/desk/context.ts',
      "import { openStore } from '../store/sqlite';\nimport { TeamLog } from '../store/postgres';\nexport const x = [openStore, TeamLog];\n",
    ],
    [
      "outside core/store, the core imports the store's contract and what names a team database",
      'src-main/core/desk/profiles-part.ts',
      "import type { Profiles } from '../store/contract/profiles';\nimport { redactDatabaseUrl } from '../store/database-url';\nexport const x: [Profiles | null, unknown] = [null, redactDatabaseUrl];\n",
    ],
    [
      "the proxy imports the store's contract",
      'src-main/core/proxy/lint-probe.ts',
      "import { sinksTheWrite } from '../store/contract/capture-writer';\nexport const x = sinksTheWrite;\n",
    ],
    [
      'base imports base and shared',
      'src-main/core/lint-probe.ts',
      "import { DeskFailure } from './result';\nimport { sumOf } from './decimal';\nimport { compactBase64 } from '../shared/base64';\nexport const x = [DeskFailure, sumOf, compactBase64];\n",
    ],
    [
      "the store's contract imports the layers below the store",
      'src-main/core/store/contract/lint-probe.ts',
      "import type { SandboxOperator } from '../../sandbox';\nimport type { NewExchange } from '../../capture/new-exchange';\nimport { probeSecrets } from '../../balance-probe/probe-secrets';\nimport { redactText } from '../../redact';\nexport const x: [SandboxOperator | null, NewExchange | null, unknown, unknown] = [null, null, probeSecrets, redactText];\n",
    ],
    [
      'the proxy imports outbound, the sandbox and the store below it',
      'src-main/core/proxy/lint-probe.ts',
      "import { toPairs } from '../outbound/headers';\nimport { SandboxOperator } from '../sandbox';\nimport { callbackSettings } from '../protocol/callback-settings';\nexport const x = [toPairs, SandboxOperator, callbackSettings];\n",
    ],
    [
      'checks import the features below them',
      'src-main/core/checks/lint-probe.ts',
      "import { readBalance } from '../balance';\nimport { exportHar } from '../export';\nexport const x = [readBalance, exportHar];\n",
    ],
    [
      'core/desk imports core and shared',
      'src-main/core/desk/lint-probe.ts',
      "import { sign } from '../signing';\nimport { compactBase64 } from '../../shared/base64';\nexport const x = [sign, compactBase64];\n",
    ],
    [
      'a shell imports core/desk and shared',
      'src-main/cli/lint-probe.ts',
      "import { createDesk } from '../core/desk';\nimport { DESK_METHODS } from '../shared/desk-api';\nexport const x = [createDesk, DESK_METHODS];\n",
    ],
    [
      'the Electron shell imports electron',
      'src-main/electron/lint-probe.ts',
      "import { app } from 'electron';\nimport { createDesk } from '../core/desk';\nexport const x = [app, createDesk];\n",
    ],
    [
      'the preload imports electron and shared',
      'src-main/preload/lint-probe.ts',
      "import { contextBridge } from 'electron';\nimport { DESK_METHODS } from '../shared/desk-api';\nexport const x = [contextBridge, DESK_METHODS];\n",
    ],
  ])('%s', async (_name, path, code) => {
    expect(await problems(path, code)).toEqual([]);
  });
});
