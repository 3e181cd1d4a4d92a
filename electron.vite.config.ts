// One build for the three pieces Electron needs, plus the CLI (which also serves the web mode).
// main: the Electron main process and the CLI, both Node targets; better-sqlite3 and the other
// dependencies stay external (native module, loaded at run time).
// preload: CommonJS, because a sandboxed preload cannot be an ES module.
// renderer: the React UI, served by Electron from file:// and by the web mode over loopback HTTP.
// Into out/ (what `npm start`, the package's bin and electron-builder use), or into the folder
// WAGER_DESK_BUILD_DIR names: `npm test` builds into a folder of its own (scripts/test-build.mjs), so a
// desk running from out/ keeps its UI while the tests build.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

const outRoot = process.env.WAGER_DESK_BUILD_DIR || 'out';

export default defineConfig({
  main: {
    build: {
      outDir: `${outRoot}/main`,
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src-main/electron/main.ts'),
          cli: resolve(__dirname, 'src-main/cli/main.ts'),
          // The export thread's code, a file of its own for its Worker (core/export/har-thread.ts).
          'export-thread': resolve(__dirname, 'src-main/core/desk/export-thread-main.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: `${outRoot}/preload`,
      rollupOptions: {
        input: { index: resolve(__dirname, 'src-main/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src-renderer'),
    plugins: [react()],
    build: {
      outDir: resolve(__dirname, outRoot, 'renderer'),
      rollupOptions: { input: resolve(__dirname, 'src-renderer/index.html') },
    },
  },
});
