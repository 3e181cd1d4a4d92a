// `wager-desk captures`: any --limit, streamed page by page; --ndjson (one object a line) and --json
// (one array); `export --har --max N` caps a HAR at N.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { runCli } from '../../helpers/cli';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { send, startProxy } from '../proxy/helpers';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

/** A data directory with n captures, depositIds d-1..d-n in capture order. */
function homeWith(n: number): string {
  const home = tempDir();
  const store = openStore(home);
  connectionOf(store).transaction(() => {
    for (let i = 1; i <= n; i++)
      store.exchanges.insert(
        inboundRow({ keys: { depositId: `d-${i}`, userId: 'u1', result: null, gameId: null, amount: 5, currency: 'USD', tournamentId: null } }),
      );
  })();
  store.close();
  return home;
}

describe('wager-desk captures', () => {
  it('aligns every column on every line, across pages, one line per row, whatever the ids', async () => {
    const home = tempDir();
    const store = openStore(home);
    // Short and very long ids, results and plain pays, on both sides of the first page of 1000.
    connectionOf(store).transaction(() => {
      for (let i = 1; i <= 1205; i++) {
        const long = i % 7 === 0;
        store.exchanges.insert(
          inboundRow({
            kind: i % 3 === 0 ? 'results' : 'pay',
            keys: {
              depositId: long ? `dep-${'x'.repeat(60)}-${i}` : `d${i}`,
              userId: long ? `user-${'y'.repeat(50)}` : 'u',
              result: i % 3 === 0 ? 'REFUND' : null,
              gameId: null,
              amount: i,
              currency: 'USD',
              tournamentId: null,
            },
          }),
        );
      }
    })();
    store.close();
    const out = await runCli(['--home', home, 'captures', '--limit', '1205']);
    expect(out.code, out.stderr).toBe(0);
    const lines = out.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1 + 1205);
    const header = lines[0]!;
    const starts = ['at', 'dir', 'kind', 'verdict', 'status', 'depositId', 'userId', 'amount'].map((h) => header.indexOf(h));
    expect(starts.every((s, i) => s > (starts[i - 1] ?? 0))).toBe(true);
    for (const line of lines.slice(1)) {
      // Each column starts where its heading does: the character before it is the gap, the first is not.
      for (const s of starts) {
        expect(line[s - 1], line).toBe(' ');
        expect(line[s], line).not.toBe(' ');
      }
    }
    expect(lines.some((l) => l.includes('…'))).toBe(true);
  });

  it('lists more than one page with --limit 5000, newest first, and points at the rest', async () => {
    const home = homeWith(5003);
    const table = await runCli(['--home', home, 'captures', '--limit', '5000']);
    expect(table.code).toBe(0);
    const lines = table.stdout.trim().split('\n');
    expect(lines).toHaveLength(1 + 5000 + 1);
    expect(lines[1]).toContain('d-5003');
    expect(lines[5000]).toContain('d-4  ');
    expect(lines.at(-1)).toBe('… more: raise --limit');

    const ndjson = await runCli(['--home', home, 'captures', '--ndjson', '--limit', '5000']);
    expect(ndjson.code).toBe(0);
    const objects = ndjson.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { depositId: string; id: number });
    expect(objects).toHaveLength(5000);
    expect(objects[0]!.depositId).toBe('d-5003');
    expect(objects.at(-1)!.depositId).toBe('d-4');
    expect(new Set(objects.map((o) => o.id)).size).toBe(5000);

    const json = await runCli(['--home', home, 'captures', '--json', '--limit', '2500']);
    expect(json.code).toBe(0);
    const array = JSON.parse(json.stdout) as Array<{ depositId: string }>;
    expect(array).toHaveLength(2500);
    expect(array[2499]!.depositId).toBe('d-2504');
  }, 60_000);

  it('prints an empty array, no lines, or the hint when there is nothing; refuses two formats at once', async () => {
    const home = homeWith(0);
    expect((await runCli(['--home', home, 'captures', '--json'])).stdout).toBe('[]\n');
    expect((await runCli(['--home', home, 'captures', '--ndjson'])).stdout).toBe('');
    expect((await runCli(['--home', home, 'captures'])).stdout).toContain('no captures yet');
    const both = await runCli(['--home', home, 'captures', '--json', '--ndjson']);
    expect(both.code).toBe(2);
    expect((await runCli(['--home', home, 'captures', '--limit', '0'])).code).toBe(2);
  });

  it('caps a HAR export at --max', async () => {
    const home = homeWith(30);
    const file = join(home, 'x.har');
    const res = await runCli(['--home', home, 'export', '--har', file, '--max', '12']);
    expect(res).toMatchObject({
      code: 0,
      stdout: `exported 12 exchanges to ${file} (the newest 12, as --max asks: raise it or narrow the filter for older ones)\n`,
    });
    const entries = (JSON.parse(readFileSync(file, 'utf8')) as { log: { entries: Array<{ request: { postData: { text: string } } }> } }).log.entries;
    expect(entries).toHaveLength(12);
    const all = await runCli(['--home', home, 'export', '--har', file, '--max', '100', '--json']);
    expect(JSON.parse(all.stdout)).toEqual({ file, entries: 30 });
    expect((await runCli(['--home', home, 'export', '--ticket', 'd-1', '--max', '3'])).code).toBe(2);
  });

  it("lists an unassigned capture's depositId and userId from its body, and finds it by --deposit; a body that is no JSON object shows -", async () => {
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'acme', callbackPrefix: '/acme' }));
    must(await desk.saveProfile({ name: 'bolt', callbackPrefix: '/bolt' }));
    const proxy = await startProxy(desk);
    const headers = { 'content-type': 'application/json' };
    expect((await send(proxy.url, { path: '/elsewhere/pay', headers, body: '{"depositId":"d-stray","userId":"u-stray","amount":7}' })).status).toBe(404);
    expect((await send(proxy.url, { path: '/elsewhere/results', headers, body: 'depositId=d-form' })).status).toBe(404);

    const out = await runCli(['--home', home, 'captures', '--all-profiles']);
    expect(out.code, out.stderr).toBe(0);
    const [head, ...rows] = out.stdout.trimEnd().split('\n');
    // Each cell starts where its heading does (the table aligns them).
    const cell = (line: string, name: string) => line.slice(head!.indexOf(name)).split(' ')[0];
    expect(rows.map((l) => [cell(l, 'profile'), cell(l, 'depositId'), cell(l, 'userId')])).toEqual([
      ['(none)', '-', '-'],
      ['(none)', 'd-stray', 'u-stray'],
    ]);
    const found = await runCli(['--home', home, 'captures', '--all-profiles', '--deposit', 'd-stray', '--json']);
    expect(
      (JSON.parse(found.stdout) as Array<{ path: string; depositId: string; profile: string | null }>).map((r) => [r.path, r.depositId, r.profile]),
    ).toEqual([['/elsewhere/pay', 'd-stray', null]]);
  });
});
