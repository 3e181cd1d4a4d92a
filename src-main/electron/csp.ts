// The Content-Security-Policy of the app's page. The packaged page is a file:// URL, whose loads carry no
// response headers, so the policy reaches it through the <meta> tag in src-renderer/index.html (kept equal
// to APP_META_CSP by test/unit/electron/csp-meta.test.ts); the dev server's responses also get it as a
// header (both apply; the stricter wins). Pure: no electron import.

/**
 * The packaged app's policy: nothing but the app's own scripts and styles; no plugins, frames, forms or
 * base rewriting. 'unsafe-inline' for styles only, because CodeMirror injects <style> elements; scripts
 * stay 'self' so an injected string can never run as code.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Directives a <meta> policy cannot carry: the browser ignores them there and logs an error. */
const HEADER_ONLY = new Set(['frame-ancestors', 'report-uri', 'sandbox']);

/** The policy as a <meta http-equiv> can carry it: the header's, less the directives only a header may set. */
export function metaPolicy(policy: string): string {
  return policy
    .split(';')
    .map((d) => d.trim())
    .filter((d) => d !== '' && !HEADER_ONLY.has(d.split(/\s+/)[0]!))
    .join('; ');
}

/**
 * What src-renderer/index.html's <meta> carries: APP_CSP less frame-ancestors (a file:// page cannot be
 * framed by a web page anyway, and the window refuses navigation and new windows).
 */
export const APP_META_CSP = metaPolicy(APP_CSP);

/**
 * The policy for a given app URL. Under the dev server (never packaged), Vite's hot reload needs its
 * websocket and the React refresh preamble (an inline module script); nothing else is loosened.
 */
export function cspFor(appUrl: string): string {
  const url = new URL(appUrl);
  if (url.protocol === 'file:') return APP_CSP;
  const ws = `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
  return APP_CSP.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", `connect-src 'self' ${ws}`);
}

export type ResponseHeaders = Record<string, string[] | string>;

/** The response headers with our policy as the only Content-Security-Policy (any other casing dropped). */
export function withCsp(headers: ResponseHeaders | undefined, csp: string): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() === 'content-security-policy') continue;
    out[name] = Array.isArray(value) ? value : [value];
  }
  out['Content-Security-Policy'] = [csp];
  return out;
}
