// A read that must not delay the proxy, checked by the callbacks sent while it runs: one after another,
// each timed to its answer. On the proxy's thread, the first callback sent meanwhile would wait for
// about all of the read; on a reading thread each is answered in a part of its time (one may meet a pause
// of the machine's, a group commit or a collection), most in a small part, and each has its row.
import { expect } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { sendCallback } from '../e2e/helpers/stack';
import { must } from './must';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Numbers the callbacks' deposits across every check in the process: each callback's row is found by its own. */
let sent = 0;

/** Callbacks to `proxyUrl` + `path`, each a pay of its own deposit (`meanwhile-N`), checked beside a read. */
export function callbacksBeside(desk: Desk, proxyUrl: string, path: string) {
  async function timedCallback(): Promise<{ ms: number; depositId: string }> {
    const depositId = `meanwhile-${sent++}`;
    const t0 = performance.now();
    const res = await sendCallback(proxyUrl, path, `{"depositId":"${depositId}","userId":"u-1","amount":1,"currency":"USD"}`, null);
    await res.arrayBuffer();
    expect(res.status).toBeLessThan(500);
    return { ms: performance.now() - t0, depositId };
  }

  /** Runs `read` with callbacks going meanwhile, checks them as the file's opening says, and returns what it answered. */
  return async function beside<T>(read: () => Promise<T>): Promise<T> {
    const quiet: number[] = [];
    for (let i = 0; i < 10; i++) quiet.push((await timedCallback()).ms);
    const t0 = performance.now();
    let reading = true;
    const running = read().finally(() => (reading = false));
    const during: Array<{ ms: number; depositId: string }> = [];
    while (reading) during.push(await timedCallback());
    const answer = await running;
    const readMs = performance.now() - t0;

    // Many callbacks were answered one after another while the read ran: it is long next to one.
    expect(during.length).toBeGreaterThan(10);
    expect(readMs).toBeGreaterThan(5 * median(quiet));
    expect(Math.max(...during.map((d) => d.ms))).toBeLessThan(readMs / 2);
    expect(median(during.map((d) => d.ms))).toBeLessThan(readMs / 10);
    for (const d of during) expect(must(await desk.listExchanges({ depositId: d.depositId, allProfiles: true })).items).toHaveLength(1);
    return answer;
  };
}
