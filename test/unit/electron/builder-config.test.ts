// The packaging configuration: electron-builder cannot run here (it downloads Electron), so
// electron-builder.yml is checked against electron-builder's own JSON schema and for what the app needs:
// the targets, the identity, the icon, and the Electron build of better-sqlite3 where main looks for it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { electronNativeBindingPath, NATIVE_FILE } from '../../../src-main/electron/native-binding';
import { electronVersion, nativeCopyPath } from '../../../scripts/ensure-electron-native.mjs';

const require = createRequire(import.meta.url);
const root = process.cwd();

interface FileSet {
  from: string;
  to: string;
  filter?: string[];
}
interface BuilderConfig {
  appId: string;
  productName: string;
  icon: string;
  directories: { output: string; buildResources: string };
  files: string[];
  extraResources: FileSet[];
  asarUnpack: string[];
  npmRebuild: boolean;
  linux: { target: string[]; maintainer?: string; category?: string };
  mac: { target: string[] };
  win: { target: string[] };
  [key: string]: unknown;
}

const yaml = require('js-yaml') as { load(text: string): unknown };
const config = yaml.load(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const schema = require('app-builder-lib/scheme.json') as object;
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

describe('electron-builder.yml', () => {
  it("validates against electron-builder's JSON schema", () => {
    const valid = validate(config);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('is refused by the same validator when an option is misspelt or mistyped (the check has teeth)', () => {
    expect(validate({ ...config, linux: { ...config.linux, targets: ['deb'] } })).toBe(false);
    expect(validate({ ...config, npmRebuild: 'no' })).toBe(false);
  });

  it("passes electron-builder's own configuration check (schema and deprecations)", async () => {
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
      validateConfiguration(config: unknown, debugLogger: { isEnabled: boolean; add(): void }): Promise<void>;
    };
    await expect(validateConfiguration(config, { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
  });

  it('names the app', () => {
    expect(config.appId).toBe('dev.wagerdesk.app');
    expect(config.productName).toBe('Wager Desk');
  });

  it('builds AppImage and deb on Linux, dmg on macOS, nsis on Windows', () => {
    expect(config.linux.target).toEqual(expect.arrayContaining(['AppImage', 'deb']));
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    // deb refuses to build without a maintainer, and package.json has no author to default to.
    expect(config.linux.maintainer).toMatch(/<[^@\s]+@[^>\s]+>/);
  });

  it('has an icon big enough for every platform (a PNG of at least 512x512)', () => {
    const png = readFileSync(join(root, config.icon));
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.toString('ascii', 12, 16)).toBe('IHDR');
    expect(png.readUInt32BE(16)).toBeGreaterThanOrEqual(512);
    expect(png.readUInt32BE(20)).toBe(png.readUInt32BE(16));
  });

  it("packs the built app, whose entry is package.json's main", () => {
    expect(config.files).toEqual(expect.arrayContaining(['out/**/*', 'package.json']));
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main.replace(/^\.\//, '')).toBe('out/main/index.js');
  });

  it('ships the Electron build of better-sqlite3 where the main process looks for it, outside the asar', () => {
    const version = electronVersion(root) ?? 'electron is not installed';
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    const native = config.extraResources.find((r) => r.from === '.native');
    expect(native).toBeDefined();
    expect(native!.filter).toEqual(['**/better_sqlite3.node']);
    // What the build script writes, relative to the checkout...
    expect(nativeCopyPath(root, version)).toBe(join(root, native!.from, `electron-${version}`, NATIVE_FILE));
    // ...lands where the packaged main process reads it, relative to process.resourcesPath.
    expect(electronNativeBindingPath({ packaged: true, resourcesPath: '/R', appPath: '/A', electronVersion: version })).toBe(
      join('/R', native!.to, `electron-${version}`, NATIVE_FILE),
    );
    expect(electronNativeBindingPath({ packaged: false, resourcesPath: '/R', appPath: root, electronVersion: version })).toBe(nativeCopyPath(root, version));
    expect(config.asarUnpack).toContain('**/*.node');
  });

  it('never rebuilds node_modules for Electron (that is the Node build the tests and the CLI load)', () => {
    expect(config.npmRebuild).toBe(false);
  });
});
