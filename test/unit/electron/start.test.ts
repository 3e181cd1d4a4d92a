// `npm start` (scripts/start.mjs): the desktop app where Electron's binary is present, otherwise one line
// saying so and the web mode; a build only when the sources are newer than the outputs.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILD_INPUTS, BUILD_OUTPUTS, chooseLaunch, childEnv, needsBuild, WEB_MODE_NOTICE, webModeNotice } from '../../../scripts/start-lib.mjs';
import { TEST_BUILD_DIR } from '../../../scripts/test-build.mjs';
import { tempDir } from '../../helpers/temp';

const repo = process.cwd();

function write(path: string, content = ''): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

function setMtime(path: string, seconds: number): void {
  utimesSync(path, seconds, seconds);
}

function setTree(path: string, seconds: number): void {
  if (statSync(path).isDirectory()) for (const entry of readdirSync(path)) setTree(join(path, entry), seconds);
  setMtime(path, seconds);
}

describe('chooseLaunch', () => {
  it("starts the web mode, saying so in one line, where Electron's binary is absent", () => {
    const root = tempDir();
    write(join(root, 'node_modules', 'electron', 'package.json'), '{"version":"45.4.1"}');
    const launch = chooseLaunch(root, ['--proxy-port', '0'], '/usr/bin/node');
    expect(launch).toEqual({
      mode: 'web',
      command: '/usr/bin/node',
      args: [join(root, 'out', 'main', 'cli.js'), 'serve', '--proxy-port', '0'],
      notice: "Electron's binary is not installed here; starting the web mode instead",
    });
    expect(WEB_MODE_NOTICE).not.toContain('\n');
  });

  it('runs Electron on the checkout where its binary is present', () => {
    const root = tempDir();
    write(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
    write(join(root, 'node_modules', 'electron', 'dist', 'electron'), 'binary');
    expect(chooseLaunch(root, ['--inspect-brk=0'])).toEqual({
      mode: 'electron',
      command: join(root, 'node_modules', 'electron', 'dist', 'electron'),
      args: [root, '--inspect-brk=0'],
    });
  });

  it('starts the web mode without a notice when asked with --web, which is not passed on', () => {
    const root = tempDir();
    write(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
    write(join(root, 'node_modules', 'electron', 'dist', 'electron'), 'binary');
    const launch = chooseLaunch(root, ['--web', '--ui-port', '0'], '/usr/bin/node');
    expect(launch).toEqual({ mode: 'web', command: '/usr/bin/node', args: [join(root, 'out', 'main', 'cli.js'), 'serve', '--ui-port', '0'] });
  });
});

describe('needsBuild', () => {
  /** A checkout whose build is newer than all of its sources. */
  function built(): string {
    const root = tempDir();
    for (const input of BUILD_INPUTS) write(input.includes('.') ? join(root, input) : join(root, input, 'sub', 'a.ts'));
    for (const output of BUILD_OUTPUTS) write(join(root, output));
    setTree(root, 1_000);
    for (const output of BUILD_OUTPUTS) setMtime(join(root, output), 2_000);
    return root;
  }

  it('is false when every output is newer than every source', () => {
    expect(needsBuild(built())).toBe(false);
  });

  it('is true when an output is missing', () => {
    const root = tempDir();
    for (const output of BUILD_OUTPUTS.slice(1)) write(join(root, output));
    expect(needsBuild(root)).toBe(true);
  });

  it('is true when a source deep in the tree is newer than the oldest output', () => {
    const root = built();
    setMtime(join(root, 'out', 'main', 'cli.js'), 1_200);
    expect(needsBuild(root)).toBe(false);
    setMtime(join(root, 'src-renderer', 'sub', 'a.ts'), 1_500);
    expect(needsBuild(root)).toBe(true);
  });

  it('is true when the build configuration changed', () => {
    const root = built();
    setMtime(join(root, 'electron.vite.config.ts'), 3_000);
    expect(needsBuild(root)).toBe(true);
  });
});

describe('childEnv', () => {
  it('drops ELECTRON_RUN_AS_NODE, which would turn the app into plain Node, and keeps the rest', () => {
    expect(childEnv({ ELECTRON_RUN_AS_NODE: '1', WAGER_DESK_HOME: '/d', PATH: '/bin' })).toEqual({ WAGER_DESK_HOME: '/d', PATH: '/bin' });
  });
});

function runNode(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe("scripts/start.mjs without Electron's binary", () => {
  it("prints the one line, then passes `serve`'s output and exit code through", async () => {
    // The test build (`npm test` makes it; scripts/test-build.mjs), linked where a checkout has out/.
    const cli = join(repo, TEST_BUILD_DIR, 'main', 'cli.js');
    expect(existsSync(cli), `${TEST_BUILD_DIR}/main/cli.js: run \`npm run build:test\` first`).toBe(true);
    // A checkout without Electron's binary: the scripts, the real build (linked), Electron's package only.
    const root = tempDir();
    mkdirSync(join(root, 'scripts'));
    for (const f of ['start.mjs', 'start-lib.mjs', 'electron-install.mjs', 'ensure-electron-native.mjs'])
      copyFileSync(join(repo, 'scripts', f), join(root, 'scripts', f));
    symlinkSync(join(repo, TEST_BUILD_DIR), join(root, 'out'), 'dir');
    write(join(root, 'node_modules', 'electron', 'package.json'), '{"version":"45.4.1"}');

    // No download attempt: what a test sees must not depend on this machine's network.
    const env = { ...process.env, WAGER_DESK_SKIP_BUILD: '1', WAGER_DESK_HOME: tempDir(), ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
    const direct = await runNode([cli, 'serve', '--help'], env);
    const started = await runNode([join(root, 'scripts', 'start.mjs'), '--help'], env);

    expect(started.stdout).toBe(`${webModeNotice("Electron's binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set")}\n${direct.stdout}`);
    expect(started.stderr).toBe(direct.stderr);
    expect(started.code).toBe(direct.code);
  });
});
