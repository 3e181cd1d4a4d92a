// The page reads both forms of the web API's answers (src-renderer/api/api-answer.ts): a text value sent
// as the body itself (marked by TEXT_VALUE_HEADER) and a Result's JSON. Against a real desk's web server,
// and against the desk's own sendResult for values no method returns on demand (a leading U+FEFF, a lone
// surrogate), read with fetch as the page reads them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer } from '../../../src-renderer/api/api-answer';
import { sendResult } from '../../../src-main/cli/web/api-routes';
import type { Result } from '../../../src-main/shared/model';
import { TEXT_VALUE_HEADER } from '../../../src-main/shared/web-wire';
import { TEST_SECRET, sendCallback, startStack, type Stack } from '../../e2e/helpers/stack';
import { must } from '../../helpers/must';
import { tokenOf } from './http-raw';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack();
});

afterAll(async () => {
  await stack?.close();
});

/** POST /api/<method> with the page's token, as the page's http-client sends it. */
const callDesk = (method: string, args: unknown[]): Promise<Response> =>
  fetch(new URL(`/api/${method}`, stack.ui.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${tokenOf(stack.ui.url)}`, 'content-type': 'application/json' },
    body: JSON.stringify(args),
  });

/** What the page reads of `result` as the desk's web API sends it. */
async function readSent(result: Result<unknown>): Promise<{ marked: boolean; read: Result<unknown> }> {
  const server = createServer((_req, res) => sendResult(res, result));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { marked: response.headers.get(TEXT_VALUE_HEADER) === 'text', read: await readAnswer('exportHar', response) };
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe("the page's reading of the web API's answers", () => {
  it('reads a HAR sent as text as the very string the desk makes, and a JSON value beside it', async () => {
    const body = JSON.stringify({ userId: 'u-answer', depositId: 'd-answer', currency: 'EUR', amount: 1 });
    expect((await sendCallback(stack.proxyUrl, '/platform/pay', body, { secret: TEST_SECRET })).status).toBe(200);
    const response = await callDesk('exportHar', [{ limit: 10 }]);
    expect(response.headers.get(TEXT_VALUE_HEADER)).toBe('text');
    const har = must((await readAnswer('exportHar', response)) as Result<string>);
    expect(har).toBe(must(await stack.desk.exportHar({ limit: 10 })));
    expect((JSON.parse(har) as { log: { entries: unknown[] } }).log.entries).toHaveLength(1);

    const status = await readAnswer('getStatus', await callDesk('getStatus', []));
    expect(status).toMatchObject({ ok: true, value: { proxy: { running: true } } });
  });

  it('keeps a leading U+FEFF and every other character of a text value', async () => {
    const text = '\ufeff# ticket\r\nÄ — 🂡 \u0000 end';
    expect(await readSent({ ok: true, value: text })).toEqual({ marked: true, read: { ok: true, value: text } });
  });

  it('reads a lone surrogate, which comes as JSON, exactly', async () => {
    const text = 'half \ud83d of a pair';
    expect(await readSent({ ok: true, value: text })).toEqual({ marked: false, read: { ok: true, value: text } });
  });

  it("passes on a failure as the desk's error, and says so when an answer carries no Result", async () => {
    const failure: Result<unknown> = { ok: false, error: { code: 'not-found', message: 'No exchanges for deposit d-none.' } };
    expect(await readSent(failure)).toEqual({ marked: false, read: failure });
    const unknownMethod = await readAnswer('noSuchMethod', await callDesk('noSuchMethod', []));
    expect(unknownMethod).toEqual({ ok: false, error: { code: 'not-found', message: 'No API method named "noSuchMethod".' } });
    // What is not the API's (the page's own address) carries no Result.
    const page = await fetch(new URL('/', stack.ui.url));
    expect(await readAnswer('getStatus', page)).toEqual({
      ok: false,
      error: { code: 'internal', message: `The desk answered getStatus with HTTP ${page.status} and no result.` },
    });
  });
});
