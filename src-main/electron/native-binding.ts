// Where the Electron-ABI build of better-sqlite3 lives. Node (tests, CLI, web mode) loads the package's
// own build in node_modules; Electron loads this copy through better-sqlite3's `nativeBinding` option,
// so one `npm install` serves both, in either order. scripts/ensure-electron-native.mjs writes the copy
// (same layout: keep the two in step); electron-builder ships it as an extra resource under native/.
import { join } from 'node:path';

export const NATIVE_FILE = 'better_sqlite3.node';

export interface NativeBindingWhere {
  packaged: boolean;
  /** process.resourcesPath: where electron-builder's extraResources land. */
  resourcesPath: string;
  /** app.getAppPath(): the checkout's root when run from source. */
  appPath: string;
  /** process.versions.electron. */
  electronVersion: string;
}

export function electronNativeBindingPath(where: NativeBindingWhere): string {
  const dir = `electron-${where.electronVersion}`;
  return where.packaged ? join(where.resourcesPath, 'native', dir, NATIVE_FILE) : join(where.appPath, '.native', dir, NATIVE_FILE);
}

/** What to tell a person whose Electron cannot load the database module. */
export function missingNativeHint(path: string): string {
  return (
    `The Electron build of better-sqlite3 was not found at ${path}. ` +
    'Run `node scripts/ensure-electron-native.mjs` in the checkout (`npm start` does this for you).'
  );
}
