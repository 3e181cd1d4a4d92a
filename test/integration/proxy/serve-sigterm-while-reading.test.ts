// SIGTERM while the web UI's search runs on a large log: `serve` stops without waiting for the search
// (it runs on a reading thread, and closing the UI ends its read): the search's connection is closed
// unanswered in a small part of the search's own time on the same log, measured first. How long the
// process then takes to exit is not bounded here: it finishes the text indexer's batch and checkpoints
// the log, which on this log of large bodies takes from a tenth of a second to seconds, idle or not.
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { SLOW_SEARCH, fillForSlowSearch } from '../../helpers/slow-search-log';
import { tempDir } from '../../helpers/temp';
import { apiCall, tokenOf } from '../web/http-raw';
import { startServe } from './serve-process';

describe('serve and a long read', () => {
  it('stops on SIGTERM during a search and closes the search unanswered at once', { timeout: 240_000 }, async () => {
    const home = tempDir();
    const filling = createDesk({ home, readBudgetMs: 120_000 });
    // Long bodies: the search tests every row's text, so it takes half a second or more.
    fillForSlowSearch(filling, 40_000, 8_000);
    const t0 = performance.now();
    expect((await filling.listExchanges(SLOW_SEARCH)).ok).toBe(true);
    const searchMs = performance.now() - t0;
    await filling.close();

    const serve = await startServe(['--home', home, 'serve', '--proxy-port', '0', '--ui-port', '0']);
    const ui = (await serve.waitForStdout(/^ui: /)).slice('ui: '.length);
    const port = Number(new URL(ui).port);
    const bearer = { authorization: `Bearer ${tokenOf(ui)}` };
    // A first status before the search, so that the one sent after it carries nothing of the desk's first
    // call (a CI run had the search answered before that status; why is not confirmed).
    expect((await apiCall(port, 'getStatus', [], bearer)).status).toBe(200);
    let searchAnswered = false;
    let searchEnded = 0;
    const search = apiCall(port, 'listExchanges', [SLOW_SEARCH], bearer).then(
      () => ((searchAnswered = true), (searchEnded = performance.now())),
      () => (searchEnded = performance.now()),
    );
    // A call sent after the search and answered: the search reached the server first.
    expect((await apiCall(port, 'getStatus', [], bearer)).status).toBe(200);
    expect(searchAnswered).toBe(false);
    const t1 = performance.now();
    const exit = await serve.stop('SIGTERM');
    await search;
    expect(exit.code).toBe(0);
    expect(searchAnswered).toBe(false);
    expect(searchEnded - t1).toBeLessThan(searchMs / 4);
  });
});
