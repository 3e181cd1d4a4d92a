// The navigation and IPC-sender guards against hostile URLs (SECURITY.md, promise 7): only the app's own
// page passes, whatever the attacker dresses a URL up as.
import { describe, expect, it } from 'vitest';
import { devServerUrl, isAllowedNavigation, isAppUrl, isTrustedSender } from '../../../src-main/electron/guards';

const FILE_APP = 'file:///opt/Wager%20Desk/resources/app.asar/out/renderer/index.html';
const DEV_APP = 'http://localhost:5173/';
const HTTPS_APP = 'https://app.example.com/';

// [description, candidate url, app url, expected]
const TABLE: Array<[string, string, string, boolean]> = [
  // the app itself
  ['the packaged page', FILE_APP, FILE_APP, true],
  ['the packaged page with a fragment', `${FILE_APP}#/captures/12`, FILE_APP, true],
  ['the packaged page with a query', `${FILE_APP}?tab=checks`, FILE_APP, true],
  ['the packaged page reached through dot segments', 'file:///opt/Wager%20Desk/resources/app.asar/out/main/../renderer/index.html', FILE_APP, true],
  ['the dev server root', DEV_APP, DEV_APP, true],
  ['a page of the dev server', 'http://localhost:5173/index.html?x=1#y', DEV_APP, true],
  ['the https app', 'https://app.example.com/path', HTTPS_APP, true],
  // look-alike hosts
  ['a look-alike host with the app host as prefix', 'https://app.example.com.attacker.test', HTTPS_APP, false],
  ['a look-alike host with the app host as prefix and path', 'https://app.example.com.attacker.test/', HTTPS_APP, false],
  ['a subdomain of the app host', 'https://evil.app.example.com/', HTTPS_APP, false],
  ['the app host over http', 'http://app.example.com/', HTTPS_APP, false],
  ['credentials that look like the host', 'http://127.0.0.1@evil.test', 'http://127.0.0.1:5173/', false],
  ['credentials naming the dev host and port', 'http://localhost:5173@evil.test/', DEV_APP, false],
  ['credentials on the real dev origin', 'http://user:pass@localhost:5173/', DEV_APP, false],
  ['the dev server on another port', 'http://localhost:5174/', DEV_APP, false],
  ['the dev server on the default port', 'http://localhost/', DEV_APP, false],
  ['the dev port on 127.0.0.1 instead of localhost', 'http://127.0.0.1:5173/', DEV_APP, false],
  ['the dev origin over https', 'https://localhost:5173/', DEV_APP, false],
  ['a websocket to the dev origin', 'ws://localhost:5173/', DEV_APP, false],
  // script and data schemes
  ['javascript:', 'javascript:alert(1)', FILE_APP, false],
  ['javascript: against the dev app', 'javascript:alert(document.domain)', DEV_APP, false],
  ['JaVaScRiPt: with whitespace', ' JaVaScRiPt:alert(1)', FILE_APP, false],
  ['a data: HTML page', 'data:text/html,<script>alert(1)</script>', FILE_APP, false],
  ['a base64 data: page', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==', DEV_APP, false],
  ['a blob: URL', 'blob:file:///0b9a0c1e-0000-4000-8000-000000000000', FILE_APP, false],
  ['about:blank', 'about:blank', FILE_APP, false],
  ['view-source of the app', `view-source:${FILE_APP}`, FILE_APP, false],
  ['chrome: internals', 'chrome://settings', FILE_APP, false],
  ['devtools:', 'devtools://devtools/bundled/inspector.html', FILE_APP, false],
  // other files
  ['another local file', 'file:///etc/passwd', FILE_APP, false],
  ['a sibling of the app page', 'file:///opt/Wager%20Desk/resources/app.asar/out/renderer/other.html', FILE_APP, false],
  ['a path that climbs out of the app', 'file:///opt/Wager%20Desk/resources/app.asar/out/renderer/../../../../../etc/passwd', FILE_APP, false],
  ['encoded dot segments climbing out', 'file:///opt/Wager%20Desk/resources/app.asar/out/renderer/%2e%2e/%2e%2e/secret.html', FILE_APP, false],
  ['the app path on a remote file host', 'file://evil.test/opt/Wager%20Desk/resources/app.asar/out/renderer/index.html', FILE_APP, false],
  ['the app path served over http', 'http://localhost/opt/Wager%20Desk/resources/app.asar/out/renderer/index.html', FILE_APP, false],
  ['a local file against the dev app', 'file:///etc/passwd', DEV_APP, false],
  // junk
  ['an empty string', '', FILE_APP, false],
  ['a relative path', 'index.html', FILE_APP, false],
  ['not a URL', 'http://[::1', DEV_APP, false],
  ['an unparseable app URL', FILE_APP, 'not a url', false],
  ['an app URL with an unsupported scheme', 'about:blank', 'about:blank', false],
];

describe('isAppUrl and isAllowedNavigation', () => {
  it.each(TABLE)('%s', (_name, url, app, expected) => {
    expect(isAppUrl(url, app)).toBe(expected);
    expect(isAllowedNavigation(url, app)).toBe(expected);
  });
});

describe('isTrustedSender', () => {
  it('trusts the app page in the top-level frame', () => {
    expect(isTrustedSender({ url: FILE_APP, parent: null }, FILE_APP)).toBe(true);
    expect(isTrustedSender({ url: `${DEV_APP}#/x`, parent: null }, DEV_APP)).toBe(true);
  });

  it('refuses an iframe, even one showing the app page', () => {
    expect(isTrustedSender({ url: FILE_APP, parent: { url: FILE_APP } }, FILE_APP)).toBe(false);
  });

  it('refuses a frame that is gone (null) or missing', () => {
    expect(isTrustedSender(null, FILE_APP)).toBe(false);
    expect(isTrustedSender(undefined, FILE_APP)).toBe(false);
  });

  it.each(TABLE.filter(([, , , expected]) => !expected))('refuses a top-level frame at %s', (_name, url, app) => {
    expect(isTrustedSender({ url, parent: null }, app)).toBe(false);
  });
});

describe('devServerUrl', () => {
  it('takes a loopback http(s) URL when not packaged, as an origin', () => {
    expect(devServerUrl('http://localhost:5173', false)).toBe('http://localhost:5173/');
    expect(devServerUrl('http://127.0.0.1:5173/some/path', false)).toBe('http://127.0.0.1:5173/');
    expect(devServerUrl('https://[::1]:5173', false)).toBe('https://[::1]:5173/');
  });

  it('ignores the variable in a packaged app', () => {
    expect(devServerUrl('http://localhost:5173', true)).toBeNull();
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['a remote host', 'http://evil.test:5173'],
    ['a look-alike of localhost', 'http://localhost.evil.test:5173'],
    ['credentials naming localhost', 'http://localhost:5173@evil.test'],
    ['credentials on localhost', 'http://a:b@localhost:5173'],
    ['a file URL', 'file:///tmp/index.html'],
    ['javascript:', 'javascript:alert(1)'],
    ['not a URL', 'localhost:5173'],
  ])('refuses %s', (_name, value) => {
    expect(devServerUrl(value, false)).toBeNull();
  });
});
