// The main process's wiring, with Electron played by a fake (its binary cannot run here): the window's
// security switches, the session lock-down, the desk on the CLI's data directory behind the IPC guard, and
// the desk closed before the app quits. The real desk runs on a temporary WAGER_DESK_HOME.
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DATABASE_FILE } from '../../../src-main/core/store/sqlite';
import { DESK_METHODS } from '../../../src-main/shared/desk-api';
import { tempDirForSuite } from '../../helpers/temp';

type Handler = (...args: unknown[]) => unknown;

class FakeEvent {
  defaultPrevented = false;
  constructor(readonly url = '') {}
  preventDefault(): void {
    this.defaultPrevented = true;
  }
}

class FakeWebContents extends EventEmitter {
  url = '';
  windowOpenHandler: Handler | null = null;
  readonly sent: Array<[string, unknown]> = [];
  setWindowOpenHandler(handler: Handler): void {
    this.windowOpenHandler = handler;
  }
  getURL(): string {
    return this.url;
  }
  send(channel: string, message: unknown): void {
    this.sent.push([channel, message]);
  }
}

const electron = vi.hoisted(() => {
  const state = {
    app: null as unknown as import('node:events').EventEmitter,
    windows: [] as Array<{ options: { webPreferences: Record<string, unknown> }; webContents: FakeWebContents; loaded: string[] }>,
    handlers: new Map<string, Handler>(),
    paths: new Map<string, string>(),
    session: {
      permissionRequest: null as Handler | null,
      permissionCheck: null as Handler | null,
      devicePermission: null as Handler | null,
      headersReceived: null as Handler | null,
    },
    quitCalls: 0,
    sandboxEnabled: false,
    errors: [] as string[],
    ready: null as null | (() => void),
  };
  return state;
});

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events');
  const app = Object.assign(new Emitter(), {
    isPackaged: false,
    enableSandbox: () => {
      electron.sandboxEnabled = true;
    },
    setPath: (name: string, path: string) => electron.paths.set(name, path),
    getAppPath: () => process.cwd(),
    requestSingleInstanceLock: () => true,
    whenReady: () => new Promise<void>((resolve) => (electron.ready = resolve)),
    quit: () => {
      electron.quitCalls += 1;
      const event = new FakeEvent();
      app.emit('will-quit', event);
    },
    exit: (code: number) => electron.errors.push(`exit ${code}`),
  });
  electron.app = app as never;
  class BrowserWindow extends Emitter {
    readonly webContents = new FakeWebContents();
    readonly loaded: string[] = [];
    constructor(readonly options: { webPreferences: Record<string, unknown> }) {
      super();
      electron.windows.push(this);
      // What Electron does for every new web contents.
      app.emit('web-contents-created', {}, this.webContents);
    }
    isDestroyed = () => false;
    isMinimized = () => false;
    restore = () => undefined;
    focus = () => undefined;
    show = () => undefined;
    loadURL(url: string): Promise<void> {
      this.loaded.push(url);
      this.webContents.url = url;
      return Promise.resolve();
    }
  }
  return {
    app,
    BrowserWindow,
    dialog: { showErrorBox: (title: string, text: string) => electron.errors.push(`${title}: ${text}`) },
    ipcMain: {
      handle: (channel: string, handler: Handler) => electron.handlers.set(channel, handler),
      removeHandler: (channel: string) => electron.handlers.delete(channel),
    },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Handler) => (electron.session.permissionRequest = h),
        setPermissionCheckHandler: (h: Handler) => (electron.session.permissionCheck = h),
        setDevicePermissionHandler: (h: Handler) => (electron.session.devicePermission = h),
        webRequest: { onHeadersReceived: (h: Handler) => (electron.session.headersReceived = h) },
      },
    },
  };
});

const home = tempDirForSuite('wager-desk-main-');
const previousHome = process.env.WAGER_DESK_HOME;
process.env.WAGER_DESK_HOME = home.dir;
const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };

async function started() {
  await import('../../../src-main/electron/main');
  electron.ready?.();
  // Let whenReady().then(start) run.
  await new Promise<void>((resolve) => setImmediate(resolve));
  const win = electron.windows[0];
  if (!win) throw new Error(`no window was created (${electron.errors.join('; ')})`);
  return win;
}
const ready = started();

afterAll(() => {
  // main.ts asks to quit on these signals; this worker must keep Node's own handling.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const l of process.listeners(signal)) if (!signalListeners[signal].includes(l)) process.off(signal, l);
  }
  if (previousHome === undefined) delete process.env.WAGER_DESK_HOME;
  else process.env.WAGER_DESK_HOME = previousHome;
  home.remove();
});

describe('the Electron main process (with a fake Electron)', () => {
  it('sandboxes every renderer and opens one window with the security switches on', async () => {
    const win = await ready;
    expect(electron.sandboxEnabled).toBe(true);
    expect(electron.windows).toHaveLength(1);
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
    expect(String(win.options.webPreferences.preload)).toMatch(/preload[\\/]index\.cjs$/);
  });

  it('loads the built page from a file:// URL', async () => {
    const win = await ready;
    expect(win.loaded).toHaveLength(1);
    expect(win.loaded[0]).toMatch(/^file:\/\/.*\/renderer\/index\.html$/);
  });

  it("keeps its data in the CLI's directory, and Chromium's in a folder of its own there", async () => {
    await ready;
    expect(electron.paths.get('sessionData')).toBe(join(home.dir, 'electron-session'));
    expect(existsSync(join(home.dir, DATABASE_FILE))).toBe(true);
  });

  it('refuses navigation away from the page, new windows and webviews', async () => {
    const win = await ready;
    const contents = win.webContents;
    for (const [event, url] of [
      ['will-navigate', 'https://app.example.com.attacker.test'],
      ['will-frame-navigate', 'file:///etc/passwd'],
      ['will-redirect', 'http://127.0.0.1@evil.test'],
      ['will-navigate', 'javascript:alert(1)'],
    ] as const) {
      const e = new FakeEvent(url);
      contents.emit(event, e);
      expect(e.defaultPrevented, `${event} ${url}`).toBe(true);
    }
    const reload = new FakeEvent(win.loaded[0]);
    contents.emit('will-navigate', reload);
    expect(reload.defaultPrevented).toBe(false);
    expect(contents.windowOpenHandler?.({ url: 'https://example.com' })).toEqual({ action: 'deny' });
    const webview = new FakeEvent();
    contents.emit('will-attach-webview', webview, {}, {});
    expect(webview.defaultPrevented).toBe(true);
  });

  it('grants no permission and puts the CSP on every response', async () => {
    await ready;
    const answers: boolean[] = [];
    electron.session.permissionRequest?.({}, 'media', (granted: boolean) => answers.push(granted), {});
    electron.session.permissionRequest?.({}, 'notifications', (granted: boolean) => answers.push(granted), {});
    expect(answers).toEqual([false, false]);
    expect(electron.session.permissionCheck?.({}, 'clipboard-read', 'file://', {})).toBe(false);
    expect(electron.session.devicePermission?.({})).toBe(false);
    let headers: Record<string, string[]> = {};
    electron.session.headersReceived?.(
      { responseHeaders: { 'content-security-policy': ['default-src *'] } },
      (r: { responseHeaders: Record<string, string[]> }) => {
        headers = r.responseHeaders;
      },
    );
    expect(Object.keys(headers)).toEqual(['Content-Security-Policy']);
    expect(headers['Content-Security-Policy']?.[0]).toContain("default-src 'none'");
  });

  it('serves DeskApi from the desk on that directory, to the page only', async () => {
    const win = await ready;
    expect([...electron.handlers.keys()].sort()).toEqual(DESK_METHODS.map((m) => `desk:${m}`).sort());
    const call = electron.handlers.get('desk:listProfiles')!;
    expect(await call({ senderFrame: { url: win.loaded[0], parent: null } })).toEqual({ ok: true, value: [] });
    expect(await call({ senderFrame: { url: 'https://evil.test/', parent: null } })).toMatchObject({ ok: false, error: { code: 'forbidden' } });

    const page = { senderFrame: { url: win.loaded[0], parent: null } };
    await electron.handlers.get('desk:saveProfile')!(page, { name: 'p1' });
    expect(await call(page)).toMatchObject({ ok: true, value: [{ name: 'p1' }] });
  });

  it('closes the desk before quitting', async () => {
    const win = await ready;
    const event = new FakeEvent();
    electron.app.emit('will-quit', event);
    expect(event.defaultPrevented).toBe(true);
    // The quit goes through once the desk has closed; after that, will-quit is let through.
    await vi.waitFor(() => expect(electron.quitCalls).toBe(1));
    const again = new FakeEvent();
    electron.app.emit('will-quit', again);
    expect(again.defaultPrevented).toBe(false);
    // A closed desk answers no more.
    const answer = (await electron.handlers.get('desk:listProfiles')!({ senderFrame: { url: win.loaded[0], parent: null } })) as { ok: boolean };
    expect(answer.ok).toBe(false);
  });
});
