// The packaged page is loaded from a file:// URL, whose loads carry no response headers: the strict
// policy reaches it only through index.html's <meta>. It must be the header's policy, less only what a
// <meta> cannot carry (the browser would log an error for frame-ancestors there).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_CSP, APP_META_CSP, metaPolicy } from '../../../src-main/electron/csp';

function metaOf(html: string): string | null {
  const match = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(html);
  return match ? match[1]!.replace(/&#39;|&apos;/g, "'") : null;
}

describe("index.html's Content-Security-Policy", () => {
  it('is APP_META_CSP exactly, in the head', () => {
    const html = readFileSync(join(process.cwd(), 'src-renderer/index.html'), 'utf8');
    const head = html.slice(0, html.indexOf('</head>'));
    expect(metaOf(head)).toBe(APP_META_CSP);
  });

  it('APP_META_CSP is APP_CSP with frame-ancestors alone left out', () => {
    const header = APP_CSP.split('; ');
    expect(APP_META_CSP.split('; ')).toEqual(header.filter((d) => !d.startsWith('frame-ancestors')));
    expect(header.some((d) => d.startsWith('frame-ancestors'))).toBe(true);
    expect(metaPolicy("default-src 'none'; sandbox; report-uri /x; frame-ancestors 'none'")).toBe("default-src 'none'");
  });
});
