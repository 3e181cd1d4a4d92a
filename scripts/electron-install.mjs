// Getting Electron's binary the way Electron itself does: since Electron 45 the package downloads its
// binary on first use (node_modules/electron/install.js, the `install-electron` bin), not at `npm install`.
// `npm start` runs that installer where the binary is missing, with its progress shown on stderr.
//
// Electron's installer has no time limit: offline, or behind a firewall that drops packets, its fetch can
// wait for minutes. So a HEAD request to the download host comes first, bounded by the caller's signal:
// it fails within the caller's deadline where the host cannot be reached, and the installer only runs
// where the download can start.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** Where Electron's installer downloads from: the mirror it is told to use (the variables @electron/get reads), else GitHub. */
export function electronDownloadBase(env = process.env) {
  return env.ELECTRON_MIRROR || env.electron_config_mirror || env.npm_config_electron_mirror || 'https://github.com/electron/electron/releases/';
}

/** Why a request failed, in a few words: the system's error code where there is one (ENOTFOUND, ECONNREFUSED...). */
function describeFetchError(err) {
  const cause = err?.cause;
  const code = cause?.code ?? err?.code;
  if (code) return code;
  return (cause?.message ?? err?.message ?? String(err)).split('\n')[0];
}

/**
 * Resolves null when the download host answers (any HTTP status: the host is there), else the reason it
 * cannot be reached. Aborting `signal` ends the request.
 */
export async function reachDownloadHost(url, signal) {
  const host = new URL(url).host;
  try {
    const res = await fetch(url, { method: 'HEAD', redirect: 'manual', signal });
    await res.body?.cancel();
    return null;
  } catch (err) {
    if (signal?.aborted) return `${host} did not answer`;
    return `${host} cannot be reached (${describeFetchError(err)})`;
  }
}

/**
 * Runs Electron's own installer (node_modules/electron/install.js) with its output on stderr (stdout stays
 * the app's). Resolves null on success, else the reason. Aborting `signal` stops it.
 */
export function runElectronInstaller(root, signal, env = process.env) {
  const script = join(root, 'node_modules', 'electron', 'install.js');
  if (!existsSync(script)) return Promise.resolve("Electron's installer (node_modules/electron/install.js) is missing");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { cwd: root, env, stdio: ['ignore', 2, 2] });
    const stop = () => child.kill();
    signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (err) => resolve(`Electron's installer could not run (${err.message})`));
    child.on('exit', (code, killedBy) => {
      signal?.removeEventListener('abort', stop);
      if (code === 0) resolve(null);
      else resolve(killedBy ? `Electron's installer was stopped (${killedBy})` : `Electron's installer failed (exit code ${code})`);
    });
  });
}

/** The real download: the host first, then Electron's installer. */
export const electronInstaller = (root, env = process.env) => ({
  reach: (signal) => reachDownloadHost(electronDownloadBase(env), signal),
  install: (signal) => runElectronInstaller(root, signal, env),
});
