// Search over everything stored, through the DeskApi and `wager-desk captures --search`; a stored secret
// (redacted before it was written) is never found; `show` prints the exchange's link; --version.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { capture } from '../../helpers/captures';
import { runCli } from '../../helpers/cli';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';
import { tempDir } from '../../helpers/temp';

const SECRET = 'the-signing-secret-Orca-42';
const pay = (depositId: string, extra = ''): string => `{"depositId":"${depositId}","userId":"user-9","amount":5,"currency":"USD"${extra}}`;

async function deskWithCaptures() {
  const home = tempDir();
  const desk = openDesk(home);
  must(await desk.saveProfile({ name: 'staging', secret: SECRET }));
  must(await desk.useProfile('staging'));
  const wanted = await capture(desk, {
    body: pay('dep-10023', ',"memo":"Refund for Table Nine"'),
    signature: { secret: SECRET },
    response: { status: 200, body: '{"balance":17.25}' },
  });
  for (let i = 0; i < 150; i++)
    await capture(desk, { body: pay(`dep-2${i}`), signature: { secret: SECRET }, response: { status: 200, body: '{"balance":1}' } });
  const leaky = await capture(desk, { body: pay('dep-leak', `,"debug":"${SECRET}"`), signature: { secret: SECRET } });
  return { home, desk, wanted, leaky };
}

describe('search everything', () => {
  it('finds a body substring, any part of an id, an answer, with the filters; never a stored secret', async () => {
    const { desk, wanted, leaky } = await deskWithCaptures();
    const top = async (search: string, more: object = {}) => must(await desk.listExchanges({ search, ...more })).items.map((x) => x.id);
    expect((await top('table nine'))[0]).toBe(wanted);
    expect(await top('table nine')).toEqual([wanted]);
    expect(await top('1002')).toEqual([wanted]);
    expect(await top('17.25')).toEqual([wanted]);
    expect(await top('table nine', { verdict: 'mismatch' })).toEqual([]);
    expect(await top('table nine', { verdict: 'valid', kind: 'pay' })).toEqual([wanted]);
    // The stored row holds the secret's marker, not the secret: a search for it finds nothing.
    expect(await top('dep-leak')).toEqual([leaky]);
    expect(await top(SECRET)).toEqual([]);
    expect(await top('Orca-42')).toEqual([]);
    // Under three characters: a depositId or userId prefix.
    expect((await top('de', { limit: 1000 })).length).toBe(152);
    expect(await top('10')).toEqual([]);
  });

  it('through `wager-desk captures --search`, the match on top; `show` prints its link', async () => {
    const { home, wanted } = await deskWithCaptures();
    const listed = await runCli(['--home', home, 'captures', '--search', 'Table Nine', '--ndjson']);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = listed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: number });
    expect(rows.map((r) => r.id)).toEqual([wanted]);
    const table = await runCli(['--home', home, 'captures', '--search', '1002']);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n')[1]).toContain('dep-10023');

    const shown = await runCli(['--home', home, 'show', String(wanted)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`link: #/exchange/${wanted}\n`);
    const withUi = await runCli(['--home', home, 'show', String(wanted), '--ui', 'http://127.0.0.1:4567/#token=abcdefghijklmnopqrstu']);
    expect(withUi.stdout).toContain(`link: http://127.0.0.1:4567/#/exchange/${wanted}\n`);
    expect(withUi.stdout).not.toContain('abcdefghijklmnopqrstu');
    const fromEnv = await runCli(['--home', home, 'show', String(wanted)], { env: { WAGER_DESK_UI: 'http://127.0.0.1:4568/' } });
    expect(fromEnv.stdout).toContain(`link: http://127.0.0.1:4568/#/exchange/${wanted}\n`);
  }, 180_000);
});

describe('wager-desk --version', () => {
  it('prints the package version with --version and -V', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const out = await runCli([flag]);
      expect(out.code).toBe(0);
      expect(out.stdout).toBe(`${version}\n`);
    }
  }, 60_000);
});
