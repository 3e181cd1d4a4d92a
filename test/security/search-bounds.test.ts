// A search is bounded before any work: one longer than MAX_SEARCH_CHARS, or holding a control character,
// is refused with a sentence by the web API (400, bad-input), the desk itself and `captures --search`;
// a callback sent while the refused searches arrive is answered and has its row.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEARCH_CHARS } from '../../src-main/shared/search-text';
import { TEST_SECRET, sendCallback, startStack, type Stack } from '../e2e/helpers/stack';
import { apiCall, tokenOf } from '../integration/web/http-raw';
import { runCli } from '../helpers/cli';
import { must } from '../helpers/must';

let stack: Stack;
let bearer: Record<string, string>;

beforeAll(async () => {
  stack = await startStack();
  bearer = { authorization: `Bearer ${tokenOf(stack.ui.url)}` };
  for (let i = 0; i < 300; i++) {
    const res = await sendCallback(stack.proxyUrl, '/pay', `{"depositId":"dep-${i}","userId":"u-1","amount":1,"currency":"USD"}`, { secret: TEST_SECRET });
    await res.arrayBuffer();
  }
});

afterAll(async () => {
  await stack?.close();
});

const HOSTILE = [
  { name: '30,000 characters', search: 'a'.repeat(30_000), says: `at most ${MAX_SEARCH_CHARS} characters` },
  { name: 'three NULs', search: '\u0000\u0000\u0000', says: 'control characters' },
  { name: 'a line break inside a word', search: 'dep\n-1', says: 'control characters' },
];

describe('a search is bounded before any work', () => {
  for (const c of HOSTILE) {
    it(`the web API refuses ${c.name} with a 400 and a sentence, and a callback sent meanwhile has its row`, async () => {
      const depositId = `dep-meanwhile-${c.name.length}`;
      const [refused, callback] = await Promise.all([
        apiCall(stack.ui.port, 'listExchanges', [{ search: c.search }], bearer),
        sendCallback(stack.proxyUrl, '/pay', `{"depositId":"${depositId}","userId":"u-2","amount":1,"currency":"USD"}`, { secret: TEST_SECRET }),
      ]);
      expect(refused.status).toBe(400);
      const body = JSON.parse(refused.body) as { ok: false; error: { code: string; message: string } };
      expect(body.error.code).toBe('bad-input');
      expect(body.error.message).toContain(c.says);
      expect(body.error.message).not.toMatch(/unterminated|internal/);
      // The refusal quotes nothing of what was sent.
      expect(body.error.message.length).toBeLessThan(200);
      expect(callback.status).toBe(200);
      await callback.arrayBuffer();
      const rows = must(await stack.desk.listExchanges({ depositId })).items;
      expect(rows).toHaveLength(1);
    });

    it(`the desk refuses ${c.name} itself (a caller past the transports)`, async () => {
      const result = await stack.desk.listExchanges({ search: c.search });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error.code).toBe('bad-input');
      expect(result.error.message).toContain(c.says);
    });
  }

  it('a search at the bound still runs', async () => {
    const result = await stack.desk.listExchanges({ search: 'd'.repeat(MAX_SEARCH_CHARS) });
    expect(must(result).items).toEqual([]);
  });

  it('`captures --search` refuses both with a usage error that quotes nothing', async () => {
    for (const c of [HOSTILE[0]!, { search: 'dep\u0007', says: 'control characters' }]) {
      const r = await runCli(['--home', stack.home, 'captures', '--search', c.search]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--search');
      expect(r.stderr).toContain(c.says);
      expect(r.stderr.length).toBeLessThan(300);
    }
  });
});
