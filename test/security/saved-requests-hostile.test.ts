// Saved requests hold no secret in any field (the name and the method too) when saved, listed or
// exported, also one saved before the secret was stored; and `saved import` checks its file as the key
// file is checked: a FIFO or a device is refused by type at once, a file over the bound by its size
// without being read, and a file that is not JSON is refused without quoting a byte of it.
import { execFileSync } from 'node:child_process';
import { truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli';
import { openDesk } from '../helpers/desk';
import { must } from '../helpers/must';
import { tempDir } from '../helpers/temp';
import { filePlaces, leaks } from './helpers/canary';

const SECRET = 'saved-hostile-sign-Wq4Er7Ty1';
const TOKEN = 'saved-hostile-tok-Ui9Op2As5';

const draft = (method: string, path: string) => ({
  method,
  path,
  headers: [['content-type', 'application/json']] as Array<[string, string]>,
  bodyBase64: Buffer.from(`{"note":"${SECRET}"}`).toString('base64'),
  sourceId: null,
});

/** The CLI with a deadline: a read that never ends (a FIFO, /dev/zero) fails the test instead of hanging it. */
async function cliWithin(ms: number, args: string[]): Promise<CliResult & { ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${args.join(' ')}: no answer within ${ms} ms`)), ms)));
  try {
    const r = await Promise.race([runCli(args), late]);
    return { ...r, ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

describe('saved requests hold no secret in any field', () => {
  it('a name and a method holding the signing secret are redacted on save, list and export, and in the database', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    must(await desk.saveProfile({ name: 'p', secret: SECRET }));
    must(await desk.useProfile('p'));
    const saved = must(await desk.saveRequest({ name: `refund ${SECRET}`, draft: draft(SECRET, `/platform/pay?k=${SECRET}`), signature: 'resign' }));
    const list = must(await desk.listSavedRequests());
    const exported = must(await desk.exportSavedRequests());
    expect(list).toHaveLength(1);
    expect(list[0]!.name).toMatch(/^refund \[redacted sha256:[0-9a-f]{8}\]$/);
    expect(list[0]!.method).toMatch(/^\[redacted sha256:[0-9a-f]{8}\]$/);
    const places = [
      { label: 'saved', bytes: JSON.stringify(saved) },
      { label: 'list', bytes: JSON.stringify(list) },
      { label: 'export', bytes: exported },
    ];
    expect(leaks(places, [SECRET])).toEqual([]);
    await desk.close();
    expect(leaks(filePlaces(home), [SECRET])).toEqual([]);
  });

  it('one saved before its secret was stored is redacted when listed and exported', async () => {
    const desk = openDesk();
    must(await desk.saveProfile({ name: 'p', secret: SECRET }));
    must(await desk.useProfile('p'));
    must(await desk.saveRequest({ name: `probe ${TOKEN}`, draft: draft('post', '/platform/pay'), signature: 'none' }));
    // The token becomes a stored secret afterwards: the balance probe's credential.
    must(
      await desk.saveProfile({
        name: 'p',
        balanceUrl: 'http://127.0.0.1:9/b/{userId}',
        balancePath: '$.b',
        balanceHeaders: [['Authorization', `Bearer ${TOKEN}`]],
      }),
    );
    const list = must(await desk.listSavedRequests());
    expect(list[0]!.method).toBe('POST');
    expect(
      leaks(
        [
          { label: 'list', bytes: JSON.stringify(list) },
          { label: 'export', bytes: must(await desk.exportSavedRequests()) },
        ],
        [TOKEN],
      ),
    ).toEqual([]);
  });
});

describe('saved import checks its file before reading it', () => {
  it(
    'refuses a FIFO and /dev/zero by type at once, a 200 MB file by its size unread, and quotes no byte of a file that is not JSON',
    { timeout: 120_000 },
    async () => {
      const home = tempDir();
      const dir = tempDir();
      const setup = await runCli(['--home', home, 'profile', 'set', 'p', '--secret-env', 'WD_SAVED_SECRET'], { env: { WD_SAVED_SECRET: SECRET } });
      expect(setup.code, setup.stderr).toBe(0);

      const fifo = join(dir, 'saved.fifo');
      execFileSync('mkfifo', [fifo]);
      const fromFifo = await cliWithin(20_000, ['--home', home, 'saved', 'import', fifo]);
      expect(fromFifo.code).toBe(2);
      expect(fromFifo.stderr).toContain('a FIFO (named pipe), not a regular file');

      const zero = await cliWithin(20_000, ['--home', home, 'saved', 'import', '/dev/zero']);
      expect(zero.code).toBe(2);
      expect(zero.stderr).toContain('a device, not a regular file');

      // Sparse: 200 MB long, no disk used; read, it would take seconds and as much memory.
      const big = join(dir, 'big.json');
      writeFileSync(big, '');
      truncateSync(big, 200 * 1024 * 1024);
      const huge = await cliWithin(20_000, ['--home', home, 'saved', 'import', big]);
      expect(huge.code).toBe(2);
      expect(huge.stderr).toContain(`is ${200 * 1024 * 1024} bytes, more than the 16 MiB it may be`);

      const notJson = join(dir, 'secret.txt');
      writeFileSync(notJson, `${SECRET}\n`);
      const bad = await cliWithin(20_000, ['--home', home, 'saved', 'import', notJson]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('not JSON');
      expect(bad.stdout + bad.stderr).not.toContain(SECRET.slice(0, 8));
      // A JSON file whose stray key is the secret: the refusal names the key only once redacted.
      const strayKey = join(dir, 'stray.json');
      writeFileSync(
        strayKey,
        JSON.stringify({
          format: 'wager-desk saved requests',
          version: 1,
          requests: [{ name: 'n', method: 'POST', path: '/', signature: 'none', headers: [], body: { text: '', [SECRET]: 1 } }],
        }),
      );
      const stray = await cliWithin(20_000, ['--home', home, 'saved', 'import', strayKey]);
      expect(stray.code).toBe(2);
      expect(stray.stdout + stray.stderr).not.toContain(SECRET.slice(0, 8));
    },
  );
});
