import { homedir } from 'node:os';
import { join } from 'node:path';

const APP_DIR_NAME = 'wager-desk';

/**
 * The per-user data directory, the same one Electron's app.getPath('userData') gives for an app named
 * "wager-desk", so the CLI, the web mode and the desktop app see the same data.
 */
export function defaultHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string {
  if (env.WAGER_DESK_HOME) return env.WAGER_DESK_HOME;
  if (platform === 'win32') return join(env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), APP_DIR_NAME);
  if (platform === 'darwin') return join(homedir(), 'Library', 'Application Support', APP_DIR_NAME);
  return join(env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), APP_DIR_NAME);
}
