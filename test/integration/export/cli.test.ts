import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { har as validateHar } from 'har-validator';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp';
import { capture } from '../../helpers/captures';
import { inboundRow } from '../../helpers/exchanges';
import { connectionOf, openStore } from '../../../src-main/core/store/sqlite';
import { MAX_HAR_EXCHANGES } from '../../../src-main/core/export/har-select';
import { exchangeOf } from '../../helpers/log-reads';
import { logOf } from '../../helpers/desk';

const SECRET = 'cli-har-secret';

async function seededHome(): Promise<{ home: string; ids: number[] }> {
  const home = tempDir();
  const desk = createDesk({ home });
  try {
    const saved = await desk.saveProfile({ name: 'p', secret: SECRET });
    expect(saved.ok).toBe(true);
    const ids = [
      await capture(desk, {
        body: '{"userId":"u1","depositId":"d1","currency":"EUR","amount":1}',
        signature: { secret: SECRET },
        response: { status: 200, body: '{}' },
      }),
      await capture(desk, { body: Buffer.from([0x7b, 0xff, 0x7d]), signature: 'a'.repeat(64) }),
      await capture(desk, {
        path: '/platform/results',
        body: '{"result":"LOSE","userId":"u2","depositId":"d2","roomId":"r","gameId":"blocks"}',
        signature: null,
      }),
    ];
    return { home, ids };
  } finally {
    await desk.close();
  }
}

describe('wager-desk export / import', () => {
  it('exports a HAR file, then imports it into another home with the same verdicts', async () => {
    const { home } = await seededHome();
    const file = join(tempDir(), 'out.har');
    const exported = await runCli(['--home', home, 'export', '--har', file]);
    expect(exported).toMatchObject({ code: 0, stdout: `exported 3 exchanges to ${file}\n` });
    await expect(validateHar(JSON.parse(readFileSync(file, 'utf8')))).resolves.toBeTruthy();

    const filtered = await runCli(['--home', home, 'export', '--har', '-', '--user', 'u2']);
    expect(filtered.code).toBe(0);
    expect(JSON.parse(filtered.stdout).log.entries).toHaveLength(1);
    expect(filtered.stderr).toBe('exported 1 exchanges\n');

    const other = tempDir();
    const setup = createDesk({ home: other });
    expect((await setup.saveProfile({ name: 'q', secret: SECRET })).ok).toBe(true);
    await setup.close();
    const imported = await runCli(['--home', other, 'import', '--har', file, '--profile', 'q', '--json']);
    expect(imported.code).toBe(0);
    const out = JSON.parse(imported.stdout);
    expect(out.imported).toBe(3);
    expect(out.verdicts).toEqual({ valid: 1, mismatch: 1, missing: 1 });
    const plain = await runCli(['--home', other, 'import', '--har', file]);
    expect(plain).toMatchObject({ code: 0, stdout: `imported 3 exchanges from ${file} (valid 1, mismatch 1, missing 1)\n` });

    const check = createDesk({ home: other });
    try {
      const x = await exchangeOf(check, out.ids[1]);
      expect(Buffer.from(x.request.bodyBase64, 'base64')).toEqual(Buffer.from([0x7b, 0xff, 0x7d]));
      expect(x.tags).toEqual(['har:Wager Desk', 'file:out.har']);
    } finally {
      await check.close();
    }
  });

  it('refuses a malformed HAR with exit 2 and one line naming the entry and field, storing nothing', async () => {
    const home = tempDir();
    const file = join(home, 'bad.har');
    writeFileSync(
      file,
      JSON.stringify({ log: { entries: [{ startedDateTime: '2025-01-01T00:00:00Z', request: { url: 'http://x/platform/pay', headers: [] } }] } }),
    );
    const r = await runCli(['--home', home, 'import', '--har', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('wager-desk: Cannot import the HAR: entries[0].request.method: missing.\n');
    const desk = createDesk({ home });
    try {
      expect(await logOf(desk).counts()).toEqual({ inbound: 0, outbound: 0 });
    } finally {
      await desk.close();
    }
    expect((await runCli(['--home', home, 'import', '--har', join(home, 'absent.har')])).code).toBe(2);
    expect((await runCli(['--home', home, 'import'])).code).toBe(2);
  });

  it('prints a ticket and a cURL command, and needs exactly one export mode', async () => {
    const { home, ids } = await seededHome();
    const ticket = await runCli(['--home', home, 'export', '--ticket', 'd1']);
    expect(ticket.code).toBe(0);
    expect(ticket.stdout).toContain('## Deposit `d1`');
    const curl = await runCli(['--home', home, 'export', '--curl', String(ids[1])]);
    expect(curl.code).toBe(0);
    expect(curl.stdout).toMatch(/^# .*\nprintf '\{\\377\}' \| curl -X POST/);
    const none = await runCli(['--home', home, 'export']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('export needs exactly one of --har FILE');
  });

  it('refuses an option that does not go with the mode instead of ignoring it', async () => {
    const { home, ids } = await seededHome();
    const out = await runCli(['--home', home, 'export', '--har', join(home, 'x.har'), '--out', join(home, 'y.har')]);
    expect(out.code).toBe(2);
    expect(out.stderr).toContain('--out goes with --ticket or --curl');
    const json = await runCli(['--home', home, 'export', '--curl', String(ids[0]), '--json']);
    expect(json.code).toBe(2);
    expect(json.stderr).toContain('--json is the summary of --har');
  });

  it('says in its summary when a filter without --limit stopped at the most one file holds', async () => {
    const home = tempDir();
    const store = openStore(home);
    connectionOf(store).transaction(() => {
      for (let i = 0; i < MAX_HAR_EXCHANGES + 2; i++) store.exchanges.insert(inboundRow());
    })();
    store.close();
    const file = join(home, 'all.har');
    const all = await runCli(['--home', home, 'export', '--har', file]);
    expect(all).toMatchObject({
      code: 0,
      stdout: `exported ${MAX_HAR_EXCHANGES} exchanges to ${file} (the newest ${MAX_HAR_EXCHANGES}, the most one file holds: narrow the filter for older ones)\n`,
    });
    // A filter that keeps few is not called cut.
    const few = await runCli(['--home', home, 'export', '--har', file, '--user', 'nobody']);
    expect(few).toMatchObject({ code: 0, stdout: `exported 0 exchanges to ${file}\n` });
  }, 60_000);
});
