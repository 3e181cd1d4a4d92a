// SIGTERM while the web UI's search runs on a large log: `serve` stops without waiting for the search
// (it runs on a reading thread, and closing the UI ends its read).
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { SLOW_SEARCH, fillForSlowSearch } from '../../helpers/slow-search-log';
import { tempDir } from '../../helpers/temp';
import { apiCall, tokenOf } from '../web/http-raw';
import { startServe } from './serve-process';

describe('serve and a long read', () => {
  it('stops on SIGTERM during a search as soon as when idle, the search unanswered', { timeout: 240_000 }, async () => {
    const home = tempDir();
    const filling = createDesk({ home });
    // Long bodies: every row's text is tested directly (nothing is indexed yet), so the search takes seconds.
    fillForSlowSearch(filling, 40_000, 4_000);
    await filling.close();

    // Its usual time: an idle serve on the same log, stopped the same way.
    const idle = await startServe(['--home', home, 'serve', '--proxy-port', '0', '--ui-port', '0']);
    await idle.waitForStdout(/^ui: /);
    const t0 = performance.now();
    expect((await idle.stop('SIGTERM')).code).toBe(0);
    const usualMs = performance.now() - t0;

    const serve = await startServe(['--home', home, 'serve', '--proxy-port', '0', '--ui-port', '0']);
    const ui = (await serve.waitForStdout(/^ui: /)).slice('ui: '.length);
    const port = Number(new URL(ui).port);
    const bearer = { authorization: `Bearer ${tokenOf(ui)}` };
    let searchAnswered = false;
    const search = apiCall(port, 'listExchanges', [SLOW_SEARCH], bearer).then(
      () => (searchAnswered = true),
      () => null,
    );
    // A call sent after the search and answered: the search reached the server first.
    expect((await apiCall(port, 'getStatus', [], bearer)).status).toBe(200);
    expect(searchAnswered).toBe(false);
    const t1 = performance.now();
    const exit = await serve.stop('SIGTERM');
    const stopMs = performance.now() - t1;
    await search;
    expect(exit.code).toBe(0);
    expect(searchAnswered).toBe(false);
    expect(stopMs).toBeLessThan(3 * usualMs);
  });
});
