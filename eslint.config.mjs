// `npm run lint`: typescript-eslint's bug-catching rules and the import boundaries of the layers.
//
// The layers (README, "Where the code lives"): shared <- core <- core/desk <- cli | electron; the preload
// and the renderer import only shared; core never imports electron; inside the core, a layer imports only the
// layers below it (docs/ARCHITECTURE-LAYERS.md); the renderer's store slices never import a feature folder.
// eslint-plugin-boundaries checks them on *resolved* paths (a relative `../desk/x` means
// different things from different folders, so a pattern on the import text cannot); ESLint's own
// no-restricted-imports keeps Node's built-ins and electron out of the layers that must not have them.
//
// Type-aware rules are off: they would build a TypeScript program per project on every run (tens of
// seconds on two cores), and `tsc -b` already checks types.
import { builtinModules } from 'node:module';
import boundaries from 'eslint-plugin-boundaries';
import tseslint from 'typescript-eslint';

/** Every folder the boundary rules know; the first pattern that matches a file names its element. */
const ELEMENTS = [
  { type: 'shared', pattern: 'src-main/shared/**', partialMatch: false },
  { type: 'core-desk', pattern: 'src-main/core/desk/**', partialMatch: false },
  // The store: its contract and the rules both engines share, then one folder per engine, then the rest (sealing).
  { type: 'store-contract', pattern: 'src-main/core/store/{contract,rows}/**', partialMatch: false },
  { type: 'store-sqlite', pattern: 'src-main/core/store/sqlite/**', partialMatch: false },
  { type: 'store-postgres', pattern: 'src-main/core/store/postgres/**', partialMatch: false },
  { type: 'store-copy', pattern: 'src-main/core/store/copy/**', partialMatch: false },
  { type: 'store', pattern: 'src-main/core/store/**', partialMatch: false },
  // The core's other layers (docs/ARCHITECTURE-LAYERS.md), one element per folder.
  { type: 'redaction', pattern: 'src-main/core/redact/**', partialMatch: false },
  ...[
    'protocol',
    'signing',
    'capture',
    'sandbox',
    'balance-probe',
    'secrets',
    'outbound',
    'balance',
    'token',
    'export',
    'redeliver',
    'saved',
    'proxy',
    'checks',
  ].map((folder) => ({ type: folder, pattern: `src-main/core/${folder}/**`, partialMatch: false })),
  // The files at the root of core/ (result.ts, paths.ts, ...), and a new folder until it is given a layer.
  { type: 'core-base', pattern: 'src-main/core', partialMatch: false },
  { type: 'cli', pattern: 'src-main/cli/**', partialMatch: false },
  { type: 'electron-main', pattern: 'src-main/electron/**', partialMatch: false },
  { type: 'preload', pattern: 'src-main/preload/**', partialMatch: false },
  { type: 'renderer-store', pattern: 'src-renderer/store/**', partialMatch: false },
  { type: 'renderer-feature', pattern: 'src-renderer/features/**', partialMatch: false },
  { type: 'renderer', pattern: 'src-renderer/**', partialMatch: false },
];

const RENDERER = ['renderer', 'renderer-store', 'renderer-feature'];
const STORE_ENGINES = ['store-sqlite', 'store-postgres', 'store-copy'];
const STORE = ['store', 'store-contract', ...STORE_ENGINES];

/**
 * The core below core/desk, bottom to top (docs/ARCHITECTURE-LAYERS.md). A layer imports only the layers
 * below it; the folders of one layer never import each other, so that neither can grow into the other's
 * job unseen. The store is one layer here; its engines have rules of their own (below).
 */
const CORE_LAYERS = [
  { name: 'base', types: ['core-base'] },
  { name: 'protocol', types: ['protocol'] },
  { name: 'signing', types: ['signing'] },
  { name: 'redaction', types: ['redaction'] },
  { name: 'rules', types: ['capture', 'sandbox', 'balance-probe'] },
  { name: 'store', types: STORE, oneFolder: true },
  { name: 'secrets', types: ['secrets'] },
  { name: 'outbound', types: ['outbound'] },
  { name: 'features', types: ['balance', 'token', 'export', 'redeliver', 'saved', 'proxy'] },
  { name: 'checks', types: ['checks'] },
];

/** Every element of core below core/desk. */
const CORE = CORE_LAYERS.flatMap((layer) => layer.types);
/**
 * What sits above the store: these see it only through its contract. The layers below the store cannot
 * import it at all (their layer policy says so), which is why they are not named here.
 */
const ABOVE_STORE = [...CORE_LAYERS.slice(CORE_LAYERS.findIndex((l) => l.name === 'store') + 1).flatMap((l) => l.types), 'core-desk'];

/**
 * The desk's files that choose, open or wire an engine, and so may import store/sqlite, store/postgres and
 * store/copy: every other file outside core/store goes through store/contract and store/rows.
 */
const COMPOSITION_ROOT = [
  // Chooses the log's engine and holds the data directory's store.
  'src-main/core/desk/context.ts',
  // Opens the SQLite store and connects to a team's PostgreSQL.
  'src-main/core/desk/index.ts',
  // Starts the SQLite capture upkeep over the store's connection, and tells SQLite's write failures in words.
  'src-main/core/desk/proxy-part.ts',
  // db migrate and db copy: both engines, and the copy between them.
  'src-main/core/desk/team-store-part.ts',
  // Fills the SQLite profile copy from the team's PostgreSQL and writes its changes back.
  'src-main/core/desk/team-profiles.ts',
  // The PostgreSQL log's notifications, as the desk's events.
  'src-main/core/desk/team-log-events.ts',
  // The desk's edge: SQLite's failures told in words a person can act on.
  'src-main/core/desk/attempt.ts',
  // The export thread's entry: it reads a team's PostgreSQL, or the data directory's SQLite file, on a connection of its own.
  'src-main/core/desk/export-thread-main.ts',
];
const MAIN_SIDE = [...CORE, 'core-desk', 'cli', 'electron-main', 'preload'];

const elementOf = (types) => ({ to: { element: { types: { anyOf: types } } } });

/** Per element of a layer: nothing above its layer, and no other folder of its own layer. */
const LAYER_POLICIES = CORE_LAYERS.flatMap((layer, rank) => {
  const above = CORE_LAYERS.slice(rank + 1).flatMap((l) => l.types);
  return layer.types.map((type) => {
    const siblings = layer.oneFolder ? [] : layer.types.filter((t) => t !== type);
    const what = layer.types.length === 1 || layer.oneFolder ? layer.name : `${type} (layer ${layer.name})`;
    return {
      from: { element: { type } },
      disallow: elementOf([...above, ...siblings]),
      message:
        siblings.length > 0
          ? `the core's layers (docs/ARCHITECTURE-LAYERS.md): ${what} imports only the layers below it, not a layer above nor ${siblings.join(', ')} beside it`
          : `the core's layers (docs/ARCHITECTURE-LAYERS.md): ${what} imports only the layers below it, never a layer above`,
    };
  });
});

/** Above the store (the proxy included), the engines stay behind the contract; the composition root is let through below. */
const ENGINES_BEHIND_CONTRACT = {
  from: { element: { types: { anyOf: ABOVE_STORE } } },
  disallow: elementOf(STORE_ENGINES),
  message:
    "outside core/store the core sees the store's contract (store/contract, store/rows), never an engine's folder: only the desk's composition root opens an engine (COMPOSITION_ROOT in eslint.config.mjs)",
};

/** What each layer must not import (by element); everything else, npm packages included, is allowed. */
const POLICIES = [
  ...LAYER_POLICIES,
  {
    from: { element: { type: 'shared' } },
    disallow: elementOf([...MAIN_SIDE, ...RENDERER]),
    message: 'shared is pure TypeScript: it imports nothing from core, desk, cli, electron, preload or the renderer',
  },
  {
    from: { element: { types: { anyOf: CORE } } },
    disallow: elementOf(['core-desk', 'cli', 'electron-main', 'preload', ...RENDERER]),
    message: 'core sits below core/desk and the shells: it never imports core/desk, cli, electron, preload or the renderer',
  },
  {
    from: { element: { type: 'store-contract' } },
    disallow: elementOf(STORE_ENGINES),
    message: "the store's contract and shared rows know no engine: they never import store/sqlite, store/postgres or store/copy",
  },
  { from: { element: { type: 'store-sqlite' } }, disallow: elementOf(['store-postgres']), message: 'store/sqlite never imports store/postgres' },
  { from: { element: { type: 'store-postgres' } }, disallow: elementOf(['store-sqlite']), message: 'store/postgres never imports store/sqlite' },
  ENGINES_BEHIND_CONTRACT,
  {
    from: { element: { type: 'core-desk' } },
    disallow: elementOf(['cli', 'electron-main', 'preload', ...RENDERER]),
    message: 'core/desk imports core and shared only, never a shell',
  },
  {
    from: { element: { types: { anyOf: ['cli', 'electron-main'] } } },
    disallow: elementOf([...CORE, 'preload', ...RENDERER]),
    message: 'a shell goes through core/desk (DeskApi) and shared, never into another core folder',
  },
  { from: { element: { type: 'cli' } }, disallow: elementOf(['electron-main']), message: 'the CLI never imports the Electron shell' },
  { from: { element: { type: 'electron-main' } }, disallow: elementOf(['cli']), message: 'the Electron shell never imports the CLI' },
  {
    from: { element: { type: 'preload' } },
    disallow: elementOf([...MAIN_SIDE.filter((t) => t !== 'preload'), ...RENDERER]),
    message: 'the preload imports only shared and electron',
  },
  { from: { element: { types: { anyOf: RENDERER } } }, disallow: elementOf(MAIN_SIDE), message: 'the renderer imports only src-main/shared' },
  {
    from: { element: { type: 'renderer-store' } },
    disallow: elementOf(['renderer-feature']),
    message: 'a store slice never imports a feature folder (features import the store)',
  },
];

/** Node's built-ins by bare name; the `node:` forms are caught by one pattern. */
const NODE_BUILTINS = builtinModules.filter((m) => !m.startsWith('node:'));
const noImports = (names, message) => ['error', { paths: names.map((name) => ({ name, message })), patterns: [{ group: ['node:*'], message }] }];
const noElectron = (message) => ['error', { paths: [{ name: 'electron', message }] }];

export default tseslint.config(
  { ignores: ['out/**', 'out-test/**', 'dist/**', 'node_modules/**', '.native/**', 'test-artifacts/**', 'build/**', '**/*.d.mts'] },
  {
    files: ['**/*.{ts,tsx,mts,cts}'],
    extends: [tseslint.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // tsc's noUnusedLocals reports these already; `_`-prefixed parameters are deliberate.
      '@typescript-eslint/no-unused-vars': ['error', { args: 'none', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      // The code pairs two effects of one condition in a comma sequence (`if (x) (a.push(y), (b = z))`),
      // which this rule cannot tell from a forgotten call.
      '@typescript-eslint/no-unused-expressions': 'off',
      // A timer declared before the closure that clears it and assigned after: a `let` on purpose.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    // Tests reach into parsed fixtures (HAR files, JSON replies) whose shape is the point of the test.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src-main/**/*.{ts,tsx}', 'src-renderer/**/*.{ts,tsx}'],
    plugins: { boundaries },
    settings: {
      'boundaries/elements': ELEMENTS,
      'boundaries/include': ['src-main/**', 'src-renderer/**'],
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.mjs', '.js', '.json'] } },
    },
    rules: {
      'boundaries/dependencies': ['error', { default: 'allow', policies: POLICIES }],
    },
  },
  {
    // The composition root opens the engines: the same boundaries less the one that keeps engines out.
    files: COMPOSITION_ROOT,
    rules: { 'boundaries/dependencies': ['error', { default: 'allow', policies: POLICIES.filter((p) => p !== ENGINES_BEHIND_CONTRACT) }] },
  },
  {
    files: ['src-main/shared/**/*.ts'],
    rules: { 'no-restricted-imports': noImports([...NODE_BUILTINS, 'electron'], 'shared runs in the renderer too: no Node built-ins, no electron') },
  },
  {
    files: ['src-main/core/**/*.ts', 'src-main/cli/**/*.ts'],
    rules: { 'no-restricted-imports': noElectron('core and the CLI run under plain Node: never electron') },
  },
  {
    files: ['src-main/preload/**/*.ts'],
    rules: { 'no-restricted-imports': noImports(NODE_BUILTINS, 'the preload is sandboxed: shared and electron only') },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': noImports([...NODE_BUILTINS, 'electron'], 'the renderer is a web page: no Node built-ins, no electron') },
  },
);
