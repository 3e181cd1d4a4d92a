// Serves the built renderer (out/renderer) with the headers a local admin page needs. The files are
// served as built: the access token is never written into any of them, the page reads it from the
// URL fragment it was opened with.
import { readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join, resolve, sep } from 'node:path';
import { packageInfo } from '../package-info';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "connect-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers every response of the web mode carries, static or API. */
export const COMMON_HEADERS: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

/** WAGER_DESK_RENDERER_DIR when set (a packaged layout, or a test's own build), else out/renderer of the project this file belongs to. */
export function defaultRendererDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WAGER_DESK_RENDERER_DIR) return resolve(env.WAGER_DESK_RENDERER_DIR);
  const pkg = packageInfo();
  return pkg ? join(pkg.dir, 'out', 'renderer') : resolve('out', 'renderer');
}

const NOT_BUILT = `<!doctype html><meta charset="utf-8"><title>Wager Desk</title>
<p>The user interface is not built. Run <code>npx electron-vite build</code> in the project, then reload this page.</p>`;

/**
 * Built assets, read once: their names carry a content hash (a rebuild makes new names), and the web
 * mode shares its event loop with the capture proxy, which a synchronous read on every page load
 * would hold up. index.html and anything outside assets/ are read each time (a rebuild shows on reload).
 */
const assetCache = new Map<string, Buffer>();
const MAX_CACHED_ASSETS = 64;

function readAsset(file: string, cacheable: boolean): Buffer | null {
  const cached = assetCache.get(file);
  if (cached) return cached;
  if (!statSync(file).isFile()) return null;
  const body = readFileSync(file);
  if (cacheable && assetCache.size < MAX_CACHED_ASSETS) assetCache.set(file, body);
  return body;
}

/** Answers GET/HEAD for a file of the renderer; false when the path names no file (the caller answers 404). */
export function serveStatic(rendererDir: string, urlPath: string, res: ServerResponse, headOnly: boolean): boolean {
  let relative: string;
  try {
    relative = decodeURIComponent(urlPath);
  } catch {
    return false;
  }
  if (relative.includes('\0')) return false;
  if (relative === '/' || relative === '/index.html') relative = '/index.html';
  const root = resolve(rendererDir);
  const file = resolve(root, `.${relative}`);
  // Never outside the renderer folder, whatever '..' or encoded separators the path holds.
  if (file !== root && !file.startsWith(root + sep)) return false;

  const isIndex = relative === '/index.html';
  let body: Buffer;
  try {
    const read = readAsset(file, relative.startsWith('/assets/'));
    if (read === null) return false;
    body = read;
  } catch {
    if (!isIndex) return false;
    body = Buffer.from(NOT_BUILT, 'utf8');
  }
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'content-type': type,
    'content-length': String(body.length),
    // The page is tiny and the token lives in its URL fragment: never keep a copy of it anywhere.
    'cache-control': isIndex ? 'no-store' : 'no-cache',
  });
  res.end(headOnly ? undefined : body);
  return true;
}
