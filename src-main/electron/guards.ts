// The decisions that keep the window locked to the app's own page, as pure functions of URLs so that
// they can be table-tested with hostile input without starting Electron. No electron import here.
//
// "The app URL" is either the built renderer's index.html as a file:// URL (always, once packaged) or
// the electron-vite dev server's origin (only `npm run dev` in a checkout).

/** Hosts a dev server URL may name: the renderer's dev server runs on this machine, never elsewhere. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/**
 * Whether `url` is the app's own page. For a file:// app URL: the same file exactly (the WHATWG parser has
 * already resolved `..` and `%2e%2e`, so a path that climbs out and back in compares by its real path);
 * query and fragment are the page's own business. For a dev server: the same scheme, host and port, with
 * no credentials (so `http://localhost:5173@evil.test` is evil.test, and a different port is another
 * server). Anything unparseable is not the app.
 */
export function isAppUrl(url: string, appUrl: string): boolean {
  const candidate = parse(url);
  const app = parse(appUrl);
  if (!candidate || !app) return false;
  if (candidate.username !== '' || candidate.password !== '') return false;
  if (app.protocol === 'file:') {
    return candidate.protocol === 'file:' && candidate.host === app.host && candidate.pathname === app.pathname;
  }
  if (app.protocol === 'http:' || app.protocol === 'https:') {
    return candidate.origin === app.origin;
  }
  return false;
}

/**
 * Whether the window may navigate to `url` (will-navigate, will-redirect, will-frame-navigate): only to
 * the app's own page (a reload). The UI is one page; links to anything else are refused, not opened.
 */
export function isAllowedNavigation(url: string, appUrl: string): boolean {
  return isAppUrl(url, appUrl);
}

/** The part of Electron's WebFrameMain the sender check reads (null: the frame is gone or navigated away). */
export interface SenderFrame {
  readonly url: string;
  /** null for a top-level frame; an iframe inside the app's page is not the app. */
  readonly parent: unknown;
}

/** Whether an IPC message comes from the app's own page, in the window's top-level frame. */
export function isTrustedSender(frame: SenderFrame | null | undefined, appUrl: string): boolean {
  if (!frame) return false;
  if (frame.parent !== null) return false;
  return isAppUrl(frame.url, appUrl);
}

/**
 * The dev server URL to trust, from electron-vite's ELECTRON_RENDERER_URL, or null: only when the app is not
 * packaged, and only an http(s) URL on a loopback host without credentials. A packaged app always loads
 * its own file, whatever the environment says.
 */
export function devServerUrl(envValue: string | undefined, packaged: boolean): string | null {
  if (packaged || !envValue) return null;
  const url = parse(envValue);
  if (!url) return null;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  if (!LOOPBACK_HOSTS.has(url.hostname)) return null;
  return url.origin + '/';
}
