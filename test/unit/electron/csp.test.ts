// The Content-Security-Policy the main process puts on every response of the app's page.
import { describe, expect, it } from 'vitest';
import { APP_CSP, cspFor, withCsp } from '../../../src-main/electron/csp';

function directives(csp: string): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of csp.split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) map.set(name, values);
  }
  return map;
}

describe('APP_CSP', () => {
  const d = directives(APP_CSP);

  it("denies by default and runs only the app's own scripts", () => {
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('script-src')).toEqual(["'self'"]);
  });

  it("never allows inline or eval'd script, and no remote origin anywhere", () => {
    expect(APP_CSP).not.toMatch(/unsafe-eval|wasm-unsafe-eval|strict-dynamic|https?:|\*/);
    expect(d.get('script-src')).not.toContain("'unsafe-inline'");
  });

  it('refuses plugins, frames, workers, base rewriting and form posts', () => {
    for (const name of ['object-src', 'frame-src', 'worker-src', 'base-uri', 'form-action', 'frame-ancestors']) {
      expect(d.get(name), name).toEqual(["'none'"]);
    }
  });
});

describe('cspFor', () => {
  it('is APP_CSP for the packaged file:// page', () => {
    expect(cspFor('file:///opt/app/out/renderer/index.html')).toBe(APP_CSP);
  });

  it("opens only what Vite's hot reload needs for the dev server, on its own origin", () => {
    const d = directives(cspFor('http://localhost:5173/'));
    expect(d.get('connect-src')).toEqual(["'self'", 'ws://localhost:5173']);
    expect(d.get('script-src')).toEqual(["'self'", "'unsafe-inline'"]);
    expect(d.get('default-src')).toEqual(["'none'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
  });
});

describe('withCsp', () => {
  it('replaces any Content-Security-Policy, whatever its casing, and keeps the other headers', () => {
    const out = withCsp(
      { 'content-security-policy': ['default-src *'], 'CONTENT-SECURITY-POLICY': 'script-src *', 'Content-Type': ['text/html'], 'x-one': 'v' },
      APP_CSP,
    );
    expect(out).toEqual({ 'Content-Type': ['text/html'], 'x-one': ['v'], 'Content-Security-Policy': [APP_CSP] });
  });

  it('adds the policy when the response had no headers', () => {
    expect(withCsp(undefined, APP_CSP)).toEqual({ 'Content-Security-Policy': [APP_CSP] });
  });
});
