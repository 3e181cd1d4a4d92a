// A database password on the command line is in the process's arguments, which every user of the machine
// reads with ps (or /proc/PID/cmdline) for as long as the command runs. Node cannot scrub them, so every
// way of giving a URL as an argument refuses one with a password, before anything runs, in one line that
// names the ways out and not the password; the same URL in the environment is taken.
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';

const PASSWORD = 'argv-pw-Zq8Lm3Xt7';
// Port 1 on loopback: nothing listens, so a URL that got as far as a connection fails differently.
const WITH_PASSWORD = `postgres://desk:${PASSWORD}@127.0.0.1:1/team`;
const AS_PARAMETER = `postgres://desk@127.0.0.1:1/team?password=${PASSWORD}`;

describe('a database password on the command line', () => {
  it('is refused before anything runs, wherever a URL is an argument, naming the ways out and not the password', { timeout: 120_000 }, async () => {
    const home = tempDir();
    const cases = [
      ['--database', WITH_PASSWORD, 'captures'],
      ['--database', AS_PARAMETER, 'status'],
      ['--database', WITH_PASSWORD, 'serve', '--proxy-port', '0', '--no-ui'],
      ['db', 'migrate', '--database', WITH_PASSWORD],
      ['db', 'copy', '--to', WITH_PASSWORD],
      ['db', 'copy', '--from', AS_PARAMETER],
      ['db', 'use', WITH_PASSWORD],
    ];
    for (const args of cases) {
      const r = await runCli(['--home', home, ...args]);
      const said = args.join(' ');
      expect(r.code, said).toBe(2);
      expect(r.stderr.trim().split('\n'), said).toHaveLength(1);
      expect(r.stderr, said).toMatch(/visible to every user of this machine \(ps\)/);
      expect(r.stderr, said).toContain('$WAGER_DESK_DATABASE_URL');
      expect(r.stderr, said).toContain('db use --from-env');
      expect(r.stderr, said).toContain('~/.pgpass');
      expect(r.stdout + r.stderr, said).not.toContain(PASSWORD);
    }
  });

  it('in the environment, or left out of an argument, is taken (the command goes on to connect)', { timeout: 60_000 }, async () => {
    const home = tempDir();
    const fromEnv = await runCli(['--home', home, 'captures'], { env: { WAGER_DESK_DATABASE_URL: WITH_PASSWORD } });
    const noPassword = await runCli(['--home', home, '--database', 'postgres://desk@127.0.0.1:1/team', 'captures']);
    for (const r of [fromEnv, noPassword]) {
      expect(r.code).toBe(2);
      expect(r.stderr).not.toMatch(/\(ps\)/);
      expect(r.stderr).toMatch(/127\.0\.0\.1:1/);
      expect(r.stdout + r.stderr).not.toContain(PASSWORD);
    }
  });
});
