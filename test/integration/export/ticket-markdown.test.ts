// A ticket bundle is pasted into trackers that render Markdown: whatever a capture holds (an id with
// backticks, line breaks, `<script>`, `#`, `|`, `>`), the bundle's structure must stay the desk's own.
import { afterEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { code, escapeText } from '../../../src-main/core/markdown';
import { tempDir } from '../../helpers/temp';
import { capture } from '../../helpers/captures';

const SECRET = 'ticket-markdown-secret';

let desk: Desk | null = null;
afterEach(async () => {
  await desk?.close();
  desk = null;
});

/** Lines of the document outside fenced blocks, and whether every fence was closed (CommonMark's rule: a closing run at least as long). */
function outsideFences(md: string): { lines: string[]; balanced: boolean } {
  const lines: string[] = [];
  let open: string | null = null;
  for (const line of md.split('\n')) {
    const run = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open === null) {
      if (run) open = run[1]!;
      else lines.push(line);
    } else if (run && run[1]![0] === open[0] && run[1]!.length >= open.length && run[2]!.trim() === '') open = null;
  }
  return { lines, balanced: open === null };
}

/** The text of a line with its code spans removed (a backtick run closed by a run of the same length). */
function withoutCodeSpans(line: string): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (line[i] === '\\') {
      out += line.slice(i, i + 2);
      i += 2;
      continue;
    }
    const run = /^`+/.exec(line.slice(i));
    if (!run) {
      out += line[i++];
      continue;
    }
    const close = new RegExp(`(?<!\`)${run[0]}(?!\`)`).exec(line.slice(i + run[0].length));
    if (!close) {
      out += run[0];
      i += run[0].length;
      continue;
    }
    out += '(code)';
    i += run[0].length + close.index + run[0].length;
  }
  return out;
}

function structure(md: string) {
  const { lines, balanced } = outsideFences(md);
  return {
    balanced,
    headings: lines.filter((l) => /^ {0,3}#{1,6}(\s|$)/.test(l)),
    quotes: lines.filter((l) => /^ {0,3}>/.test(l)).length,
    tableRows: lines.filter((l) => l.startsWith('|')).map((l) => withoutCodeSpans(l).split(/(?<!\\)\|/).length),
    rawHtml: lines.filter((l) => /(?<!\\)<[a-z/!?]/i.test(withoutCodeSpans(l))),
  };
}

async function bundleFor(depositId: string, userId: string, gameId: string): Promise<string> {
  desk = createDesk({ home: tempDir() });
  expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
  const pay = JSON.stringify({ userId, depositId, currency: 'EUR', amount: 4, gameId });
  const refund = JSON.stringify({ result: 'REFUND', userId, depositId, currency: 'EUR', amount: 3 });
  await capture(desk, { body: pay, signature: { secret: SECRET }, response: { status: 200, body: '{"ok":true}' } });
  await capture(desk, { path: '/platform/results', body: refund, signature: 'f'.repeat(64), response: { status: 200, body: '{"ok":true}' } });
  const result = await desk.ticketBundle(depositId);
  if (!result.ok) throw new Error(result.error.message);
  await desk.close();
  desk = null;
  return result.value;
}

describe('ticket bundles are safe Markdown', () => {
  const hostile = 'd`x``\n# Injected heading\n```\n<script>alert(1)</script>\n> quote | cell';

  it('keeps its headings, fences, table and no raw HTML whatever the ids hold', async () => {
    const plain = structure(await bundleFor('dep-1', 'user-1', 'blocks'));
    const md = await bundleFor(hostile, '`<img src=x onerror=alert(1)>`\n## two', '<b>|#');
    const attacked = structure(md);
    expect(plain.balanced).toBe(true);
    expect(attacked.balanced).toBe(true);
    expect(attacked.headings).toHaveLength(plain.headings.length);
    expect(attacked.quotes).toBe(0);
    expect(attacked.tableRows).toEqual(plain.tableRows);
    expect(attacked.rawHtml).toEqual([]);
    // The value is still there to read, exactly, in a code span.
    expect(md).toContain(`## Deposit ${code(hostile)}`);
    expect(code(hostile)).toContain('<script>alert(1)</script>');
    // The anomaly of the deposit names the REFUND at another amount and the badly signed one accepted.
    expect(md).toContain('**amount-differs**');
    expect(md).toContain('**accepted-bad-signature**');
    expect(md).toContain('**mismatch, accepted by the operator**');
    expect(md).not.toContain('Nothing unusual');
  });

  it('escapes text and code spans at the edges', () => {
    expect(code('a`b')).toBe('``a`b``');
    expect(code('`x')).toBe('`` `x ``');
    expect(code('x\ny')).toBe('`x\\ny`');
    expect(escapeText('<script> # | *x* [l](u) &amp;')).toBe('\\<script\\> \\# \\| \\*x\\* \\[l\\](u) \\&amp;');
    expect(escapeText('a\n# b')).toBe('a\\\\n\\# b');
  });
});

describe('ticket bundle warnings', () => {
  it('names an answer the desk made itself and says Nothing unusual only for a clean deposit', async () => {
    desk = createDesk({ home: tempDir() });
    expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
    const pay = (d: string) => JSON.stringify({ userId: 'u', depositId: d, currency: 'EUR', amount: 4 });
    await capture(desk, {
      body: pay('dep-down'),
      signature: { secret: SECRET },
      response: { status: 502, body: '{"errors":[{"code":"UPSTREAM_UNREACHABLE","isClientSafe":false}]}' },
      error: 'the upstream is unreachable: connect ECONNREFUSED 127.0.0.1:9199',
    });
    await capture(desk, { body: pay('dep-ok'), signature: { secret: SECRET }, response: { status: 200, body: '{}' } });
    const down = await desk.ticketBundle('dep-down');
    const ok = await desk.ticketBundle('dep-ok');
    if (!down.ok || !ok.ok) throw new Error('no bundle');
    expect(down.value).toContain('502 made by the desk: the desk could not reach the operator at 127.0.0.1:9199: connection refused');
    expect(down.value).toContain('**desk-answered**');
    expect(down.value).not.toContain('Nothing unusual');
    expect(ok.value).toContain('Nothing unusual');
  });
});
