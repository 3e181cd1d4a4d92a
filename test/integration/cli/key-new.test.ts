// `key new FILE`: a team key file in the format every desk reads (--key-file): 32 random bytes, a regular
// file of mode 0600; never an existing file overwritten; a desk given it seals and opens secrets with it.
import { chmodSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp';

describe('key new', () => {
  it('makes a 32-byte key file only its owner may read, which a desk then seals and opens secrets with', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    const file = join(dir, 'team.key');
    const r = await runCli(['key', 'new', file]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(`key: ${file} (32 random bytes, readable by you only)\n`);
    expect(r.stderr).toContain('--key-file');
    const stat = statSync(file);
    expect(stat.isFile()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(readFileSync(file)).toHaveLength(32);

    const other = join(dir, 'other.key');
    expect((await runCli(['key', 'new', other])).code).toBe(0);
    expect(readFileSync(other).equals(readFileSync(file))).toBe(false);

    const home = tempDir();
    const env = { SECRET: 'keyed-secret' };
    const set = await runCli(['--home', home, '--key-file', file, 'profile', 'set', 'acme', '--secret-env', 'SECRET'], { env });
    expect(set.code, set.stderr).toBe(0);
    const status = await runCli(['--home', home, '--key-file', file, 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ secretsKey: { from: 'given-file', file }, secretsKeyProblem: null });
    const signed = await runCli(['--home', home, '--key-file', file, 'sign', '--profile', 'acme', '-'], { input: '{}' });
    expect(signed.code, signed.stderr).toBe(0);
    expect(signed.stdout).toMatch(/^[0-9a-f]{64}\n$/);
  });

  it('refuses to overwrite a file, or to follow a link in its place, and leaves it as it was', { timeout: 60_000 }, async () => {
    const dir = tempDir();
    const file = join(dir, 'team.key');
    writeFileSync(file, 'the team key already made');
    chmodSync(file, 0o600);
    const r = await runCli(['key', 'new', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `wager-desk: key new: ${file} already exists; a key file is never overwritten (the secrets sealed with it would be lost): choose another name, or remove it yourself first\n`,
    );
    expect(readFileSync(file, 'utf8')).toBe('the team key already made');

    const link = join(dir, 'link.key');
    const target = join(dir, 'not-there-yet');
    symlinkSync(target, link);
    const linked = await runCli(['key', 'new', link]);
    expect(linked.code).toBe(2);
    expect(linked.stderr).toContain('already exists');
    expect(() => statSync(target)).toThrow();
  });

  it('says which directory is missing, and makes nothing', async () => {
    const file = join(tempDir(), 'no-such-dir', 'team.key');
    const r = await runCli(['key', 'new', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/key new: .*team\.key: the directory .*no-such-dir does not exist\n$/);
  });
});
