// `npm start` where Electron's binary is missing: it runs Electron's installer and opens the desktop app,
// or starts the web mode saying why in one line, and never waits on an installer that hangs longer than
// its deadline. The decision is checked with stand-in installers; the real installer's two steps (the
// download host's answer, the installer process) against a local server and a stand-in install.js.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reachDownloadHost, runElectronInstaller } from '../../../scripts/electron-install.mjs';
import { obtainElectron, prepareLaunch, withDeadline, type ElectronInstaller, type Obtained } from '../../../scripts/start-lib.mjs';
import { closeAfterTest } from '../../helpers/closing';
import { tempDir } from '../../helpers/temp';

function write(path: string, content = ''): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

/** A checkout with Electron's package but not its binary. */
function checkoutWithoutBinary(): string {
  const root = tempDir();
  write(join(root, 'node_modules', 'electron', 'package.json'), '{"version":"45.4.1"}');
  return root;
}

/** What Electron's installer leaves behind: the binary and path.txt naming it. */
function putBinary(root: string): void {
  write(join(root, 'node_modules', 'electron', 'path.txt'), 'electron');
  write(join(root, 'node_modules', 'electron', 'dist', 'electron'), 'binary');
}

/** A step that never finishes by itself; resolves with a reason once its signal is aborted. */
const hanging =
  (seen: AbortSignal[]) =>
  (signal: AbortSignal): Promise<string | null> => {
    seen.push(signal);
    return new Promise((resolve) => signal.addEventListener('abort', () => resolve('aborted')));
  };

const NO_ENV = {} as NodeJS.ProcessEnv;
const nativePresent = async () => ({ status: 'present' as const });

describe("npm start where Electron's binary is missing", () => {
  it('runs the installer, prepares the native module, and launches Electron', async () => {
    const root = checkoutWithoutBinary();
    const calls: string[] = [];
    const installer: ElectronInstaller = {
      reach: async () => (calls.push('reach'), null),
      install: async () => (calls.push('install'), putBinary(root), null),
    };
    const launch = await prepareLaunch({
      root,
      argv: ['--inspect=0'],
      obtain: () => obtainElectron({ root, installer, env: NO_ENV }),
      ensureNative: async (o) => (calls.push(`native ${o.root === root}`), { status: 'built' }),
    });
    expect(calls).toEqual(['reach', 'install', 'native true']);
    expect(launch).toEqual({ mode: 'electron', command: join(root, 'node_modules', 'electron', 'dist', 'electron'), args: [root, '--inspect=0'] });
  });

  it('starts the web mode with the reason in one line when the download host cannot be reached, without running the installer', async () => {
    const root = checkoutWithoutBinary();
    let installed = false;
    const installer: ElectronInstaller = {
      reach: async () => 'github.com cannot be reached (ENOTFOUND)',
      install: async () => ((installed = true), null),
    };
    const launch = await prepareLaunch({
      root,
      argv: [],
      obtain: () => obtainElectron({ root, installer, env: NO_ENV }),
      ensureNative: nativePresent,
      execPath: '/usr/bin/node',
    });
    expect(installed).toBe(false);
    expect(launch.mode).toBe('web');
    expect(launch.args).toEqual([join(root, 'out', 'main', 'cli.js'), 'serve']);
    expect(launch.notice).toBe(
      "Cannot open the desktop app: Electron's binary could not be downloaded: github.com cannot be reached (ENOTFOUND); starting the web mode instead",
    );
  });

  it("starts the web mode with the installer's failure, in one line", async () => {
    const root = checkoutWithoutBinary();
    const installer: ElectronInstaller = { reach: async () => null, install: async () => "Electron's installer failed\n(exit code 1)" };
    const launch = await prepareLaunch({ root, argv: [], obtain: () => obtainElectron({ root, installer, env: NO_ENV }), ensureNative: nativePresent });
    expect(launch.mode).toBe('web');
    expect(launch.notice).toContain("Electron's installer failed (exit code 1)");
    expect(launch.notice).not.toContain('\n');
  });

  it('gives up on a download host that does not answer at the deadline, and aborts the wait', async () => {
    const root = checkoutWithoutBinary();
    const signals: AbortSignal[] = [];
    const got = await obtainElectron({ root, installer: { reach: hanging(signals), install: async () => null }, env: NO_ENV, reachTimeoutMs: 50 });
    expect(got).toEqual({ ok: false, reason: "Electron's binary could not be downloaded: Electron's download host: gave up after 0.05 s" });
    // Given up at the deadline, not after the installer's own, much longer wait: the wait was aborted.
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  });

  it('gives up on an installer that hangs at its deadline, and stops it', async () => {
    const root = checkoutWithoutBinary();
    const signals: AbortSignal[] = [];
    const got = await obtainElectron({ root, installer: { reach: async () => null, install: hanging(signals) }, env: NO_ENV, installTimeoutMs: 50 });
    expect(got).toEqual({ ok: false, reason: "Electron's binary could not be downloaded: Electron's installer: gave up after 0.05 s" });
    expect(signals.map((s) => s.aborted)).toEqual([true]);
  });

  it('says so when the installer succeeds but leaves no binary', async () => {
    const root = checkoutWithoutBinary();
    const got = await obtainElectron({ root, installer: { reach: async () => null, install: async () => null }, env: NO_ENV });
    expect(got).toEqual({ ok: false, reason: "Electron's installer finished but the binary is not in node_modules/electron/dist" });
  });

  it('does not download where ELECTRON_SKIP_BINARY_DOWNLOAD is set', async () => {
    const root = checkoutWithoutBinary();
    const used: string[] = [];
    const installer: ElectronInstaller = { reach: async () => (used.push('reach'), null), install: async () => (used.push('install'), null) };
    const got = await obtainElectron({ root, installer, env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } as NodeJS.ProcessEnv });
    expect(got).toEqual({ ok: false, reason: "Electron's binary is not installed and ELECTRON_SKIP_BINARY_DOWNLOAD is set" });
    expect(used).toEqual([]);
  });

  it('starts the web mode when the Electron build of better-sqlite3 cannot be made', async () => {
    const root = checkoutWithoutBinary();
    putBinary(root);
    const launch = await prepareLaunch({ root, argv: [], obtain: async () => ({ ok: true }), ensureNative: async () => ({ status: 'failed' }) });
    expect(launch.mode).toBe('web');
    expect(launch.notice).toBe(
      'Cannot open the desktop app: the Electron build of better-sqlite3 could not be made (see above); starting the web mode instead',
    );
  });

  it('neither downloads where the binary is present nor where --web asks for the web mode', async () => {
    const obtained: string[] = [];
    const obtain = async (): Promise<Obtained> => (obtained.push('obtain'), { ok: true });
    const present = checkoutWithoutBinary();
    putBinary(present);
    expect((await prepareLaunch({ root: present, argv: [], obtain, ensureNative: nativePresent })).mode).toBe('electron');
    const web = await prepareLaunch({ root: checkoutWithoutBinary(), argv: ['--web'], obtain, ensureNative: nativePresent });
    expect(web.mode).toBe('web');
    expect(web.notice).toBeUndefined();
    expect(obtained).toEqual([]);
  });
});

describe('withDeadline', () => {
  it('passes a result through, turns a thrown error into its reason, and gives up at the deadline', async () => {
    expect(await withDeadline(async () => null, 1_000, 'x')).toBeNull();
    expect(await withDeadline(async () => 'no', 1_000, 'x')).toBe('no');
    expect(
      await withDeadline(
        async () => {
          throw new Error('boom');
        },
        1_000,
        'x',
      ),
    ).toBe('boom');
    expect(await withDeadline(hanging([]), 20, 'the host')).toBe('the host: gave up after 0.02 s');
  });
});

describe('the real installer steps', () => {
  it('reachDownloadHost: null for a host that answers, any status; the reason for one that refuses', async () => {
    const server = http.createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closeAfterTest(server);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/electron/releases/`;
    expect(await reachDownloadHost(url)).toBeNull();

    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await reachDownloadHost(`http://127.0.0.1:${port}/`)).toBe(`127.0.0.1:${port} cannot be reached (ECONNREFUSED)`);
  });

  it('reachDownloadHost: a host that accepts but never answers is given up at the deadline', async () => {
    const silent = http.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    closeAfterTest(silent);
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/`;
    expect(await withDeadline((signal) => reachDownloadHost(url, signal), 100, "Electron's download host")).toBe(
      "Electron's download host: gave up after 0.1 s",
    );
  });

  it('runElectronInstaller: runs node_modules/electron/install.js and reports its exit', async () => {
    const root = checkoutWithoutBinary();
    const script = join(root, 'node_modules', 'electron', 'install.js');
    expect(await runElectronInstaller(root)).toBe("Electron's installer (node_modules/electron/install.js) is missing");

    write(script, 'process.exit(3);\n');
    expect(await runElectronInstaller(root)).toBe("Electron's installer failed (exit code 3)");

    write(
      script,
      "const fs = require('fs'); const path = require('path');\nfs.mkdirSync(path.join(__dirname, 'dist'), { recursive: true });\nfs.writeFileSync(path.join(__dirname, 'dist', 'electron'), 'binary');\nfs.writeFileSync(path.join(__dirname, 'path.txt'), 'electron');\n",
    );
    expect(await runElectronInstaller(root)).toBeNull();
    expect(await obtainElectron({ root, installer: { reach: async () => null, install: () => runElectronInstaller(root) }, env: NO_ENV })).toEqual({
      ok: true,
    });
  });

  it('runElectronInstaller: an abort stops the installer process', async () => {
    const root = checkoutWithoutBinary();
    write(join(root, 'node_modules', 'electron', 'install.js'), "process.stderr.write('downloading\\n'); setInterval(() => {}, 1000);\n");
    const controller = new AbortController();
    const running = runElectronInstaller(root, controller.signal);
    controller.abort();
    expect(await running).toBe("Electron's installer was stopped (SIGTERM)");
  });
});
