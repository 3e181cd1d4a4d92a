// The Electron main process: one locked-down window on the built UI, the desk running here on the same
// data directory as the CLI, DeskApi over IPC for the app's own page only, and a clean close on quit.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { app, BrowserWindow, dialog, ipcMain, session } from 'electron';
import { createDesk, type Desk } from '../core/desk';
import { defaultHome } from '../core/desk/shell-kit';
import { devServerUrl, isAppUrl } from './guards';
import { forwardDeskEvents, registerDeskIpc } from './ipc';
import { lockDownApp, lockDownSession } from './lockdown';
import { electronNativeBindingPath, missingNativeHint } from './native-binding';
import { createMainWindow } from './window';

// Every renderer sandboxed, whatever a future BrowserWindow forgets to say.
app.enableSandbox();

const rendererIndex = fileURLToPath(new URL('../renderer/index.html', import.meta.url));
const preloadPath = fileURLToPath(new URL('../preload/index.cjs', import.meta.url));
const appUrl = devServerUrl(process.env.ELECTRON_RENDERER_URL, app.isPackaged) ?? pathToFileURL(rendererIndex).href;
const getAppUrl = (): string => appUrl;

// The CLI's data directory (not app.getPath('userData'), which follows the product name once packaged).
const home = defaultHome();
// Chromium's own files (cache, local storage) kept in one named folder rather than beside the database.
app.setPath('sessionData', join(home, 'electron-session'));

let desk: Desk | null = null;
let win: BrowserWindow | null = null;
let deskClosed = false;
let closing: Promise<void> | null = null;

function openDesk(): Desk {
  const binding = electronNativeBindingPath({
    packaged: app.isPackaged,
    resourcesPath: process.resourcesPath,
    appPath: app.getAppPath(),
    electronVersion: process.versions.electron ?? '',
  });
  const present = existsSync(binding);
  // A team's PostgreSQL holds the exchange log when the environment names one, else when one is saved for
  // the data directory (`wager-desk db use`, read by createDesk), as for the CLI.
  const database = process.env.WAGER_DESK_DATABASE_URL || undefined;
  try {
    return createDesk({ home, requireSecretsKey: true, ...(present ? { nativeBinding: binding } : {}), ...(database ? { database } : {}) });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw new Error(present ? reason : `${reason}\n\n${missingNativeHint(binding)}`);
  }
}

function showWindow(opened: Desk): void {
  // Locked down by lockDownApp's web-contents-created hook, like every other web contents.
  const window = createMainWindow(preloadPath);
  // Events go only to the app's own page (navigation is denied anyway; this keeps it so if that ever fails).
  const stopForwarding = forwardDeskEvents(opened, (channel, message) => {
    if (window.isDestroyed()) return;
    if (!isAppUrl(window.webContents.getURL(), appUrl)) return;
    window.webContents.send(channel, message);
  });
  window.on('closed', () => {
    stopForwarding();
    win = null;
  });
  win = window;
  void window.loadURL(appUrl);
}

async function start(): Promise<void> {
  lockDownSession(session.defaultSession, getAppUrl);
  try {
    // A lost or foreign key file stops the app with its one-line reason, as it stops `serve`.
    desk = openDesk();
  } catch (err) {
    dialog.showErrorBox('Wager Desk cannot open its data', `${(err as Error).message}\n\nData directory: ${home}`);
    app.exit(1);
    return;
  }
  registerDeskIpc(ipcMain, desk, getAppUrl);
  showWindow(desk);
}

if (!app.requestSingleInstanceLock()) {
  // A second desk on the same database would fight the first over the proxy port: hand over and leave.
  app.quit();
} else {
  lockDownApp(app, getAppUrl);
  app.on('second-instance', () => {
    if (!win) return;
    if (win.isMinimized()) win.restore();
    win.focus();
  });
  // The desk runs the capture proxy: closing the window ends the session on every platform, macOS too.
  app.on('window-all-closed', () => app.quit());
  app.on('will-quit', (event) => {
    if (deskClosed || !desk) return;
    // Electron does not wait for promises here: hold the quit until the database is closed, then quit again.
    event.preventDefault();
    closing ??= desk
      .close()
      .catch((err: unknown) => console.error('wager-desk: closing the desk failed:', err))
      .finally(() => {
        deskClosed = true;
        app.quit();
      });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  void app.whenReady().then(start);
}
