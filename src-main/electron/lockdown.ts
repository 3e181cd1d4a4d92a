// The Electron side of the lock-down: every web contents may only show the app's page, opens no windows,
// attaches no webviews; the session grants no permission and serves every response with our CSP.
// The decisions themselves are the pure functions in guards.ts and csp.ts.
import type { App, Session, WebContents } from 'electron';
import { cspFor, withCsp } from './csp';
import { isAllowedNavigation } from './guards';

/** Refuses navigation away from the app, new windows and webviews in one web contents. */
export function lockDownContents(contents: WebContents, appUrl: () => string): void {
  contents.on('will-navigate', (event) => {
    if (!isAllowedNavigation(event.url, appUrl())) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isAllowedNavigation(event.url, appUrl())) event.preventDefault();
  });
  contents.on('will-redirect', (event) => {
    if (!isAllowedNavigation(event.url, appUrl())) event.preventDefault();
  });
  contents.setWindowOpenHandler(() => ({ action: 'deny' }));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
  });
}

/** Applies lockDownContents to every web contents the app ever creates, including ones we did not ask for. */
export function lockDownApp(app: App, appUrl: () => string): void {
  app.on('web-contents-created', (_event, contents) => {
    lockDownContents(contents, appUrl);
  });
}

/** No permission is ever granted (camera, notifications, clipboard reads, devices...), and every
 *  response carries our Content-Security-Policy. */
export function lockDownSession(session: Session, appUrl: () => string): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => {
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders, cspFor(appUrl())) });
  });
}
