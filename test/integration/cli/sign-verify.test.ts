import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp';
import { bodyOf, VECTORS } from '../../helpers/vectors';

// Each case runs the CLI as a process, tens of times: on a loaded machine a spawn takes a second or more.
describe('wager-desk sign / verify', { timeout: 120_000 }, () => {
  it('signs every vector from a file and from stdin like openssl did', async () => {
    expect(VECTORS.length).toBeGreaterThan(5);
    const home = tempDir();
    for (const v of VECTORS) {
      const file = join(home, `${v.name}.body`);
      writeFileSync(file, bodyOf(v));
      const env = { WD_SECRET: v.secret };
      const fromFile = await runCli(['--home', home, 'sign', '--secret-env', 'WD_SECRET', file], { env });
      expect(fromFile, v.name).toMatchObject({ code: 0, stdout: `${v.signature}\n` });
      const fromStdin = await runCli(['--home', home, 'sign', '--secret-env', 'WD_SECRET', '-'], { env, input: bodyOf(v) });
      expect(fromStdin.stdout, v.name).toBe(`${v.signature}\n`);
    }
  });

  it('verifies every vector (exit 0) and rejects a changed one with a diagnosis (exit 1)', async () => {
    const home = tempDir();
    for (const v of VECTORS) {
      const ok = await runCli(['--home', home, 'verify', '--signature', v.signature, '--secret-env', 'S'], { env: { S: v.secret }, input: bodyOf(v) });
      expect(ok, v.name).toMatchObject({ code: 0, stdout: 'valid\n' });
    }
    const pretty = VECTORS.find((v) => v.name === 'pretty-printed')!;
    const compact = Buffer.from(JSON.stringify(JSON.parse(bodyOf(pretty).toString())));
    const bad = await runCli(['--home', home, 'verify', '--signature', pretty.signature, '--secret-env', 'S', '--json'], {
      env: { S: pretty.secret },
      input: compact,
    });
    expect(bad.code).toBe(1);
    const report = JSON.parse(bad.stdout);
    expect(report.verdict).toBe('mismatch');
    expect(report.diagnosis.match.variant).toBe('pretty-2-newline');
  });

  it('rejects the right HMAC in uppercase hex (exit 1), as a receiver comparing hex strings does, and says why', async () => {
    const home = tempDir();
    const v = VECTORS[0]!;
    const upper = await runCli(['--home', home, 'verify', '--signature', v.signature.toUpperCase(), '--secret-env', 'S'], {
      env: { S: v.secret },
      input: bodyOf(v),
    });
    expect(upper.code).toBe(1);
    expect(upper.stdout).toContain('mismatch\n');
    expect(upper.stdout).toContain('diagnosis: the right HMAC, written in uppercase hex; receivers that compare hex strings reject it\n');
  });

  it('agrees with openssl on bodies and secrets it has never seen', async () => {
    const home = tempDir();
    for (let i = 0; i < 8; i++) {
      const body = randomBytes(1 + Math.floor(Math.random() * 4096));
      const secret = randomBytes(24).toString('base64');
      const file = join(home, `random-${i}`);
      writeFileSync(file, body);
      const expected = execFileSync('openssl', ['dgst', '-sha256', '-hmac', secret, '-hex', file]).toString().trim().split(' ').pop();
      const got = await runCli(['--home', home, 'sign', '--secret-env', 'S', file], { env: { S: secret } });
      expect(got.stdout.trim()).toBe(expected);
      const verified = await runCli(['--home', home, 'verify', '--signature', expected!, '--secret-env', 'S', file], { env: { S: secret } });
      expect(verified.code).toBe(0);
    }
  });

  it('uses the active profile secret, and --secret-env overrides it', async () => {
    const home = tempDir();
    const v = VECTORS[0]!;
    const file = join(home, 'body');
    writeFileSync(file, bodyOf(v));
    expect((await runCli(['--home', home, 'profile', 'set', 'dev', '--secret-env', 'S'], { env: { S: v.secret } })).code).toBe(0);
    expect((await runCli(['--home', home, 'sign', file])).stdout).toBe(`${v.signature}\n`);
    expect((await runCli(['--home', home, 'sign', '--secret-env', 'O', file], { env: { O: 'other' } })).stdout).not.toBe(`${v.signature}\n`);
    // A signature made with the stored profile's secret, checked with another: the diagnosis names the profile.
    const diag = await runCli(['--home', home, 'verify', '--signature', v.signature, '--secret-env', 'O', file], { env: { O: 'other' } });
    expect(diag.code).toBe(1);
    expect(diag.stdout).toContain('profile "dev"');
  });

  it('exits 2 with a one-line reason on usage and configuration errors', async () => {
    const home = tempDir();
    const cases: string[][] = [
      ['sign'], // no secret anywhere
      ['sign', '--secret-env', 'UNSET_VARIABLE_FOR_TEST'],
      ['sign', '--secret-env', 'S', join(home, 'does-not-exist')],
      ['verify', '--secret-env', 'S'], // --signature missing
      ['sign', '--bogus-flag'],
      ['sign', '--profile', 'nope'],
    ];
    for (const args of cases) {
      const r = await runCli(['--home', home, ...args], { env: { S: 'x' } });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout, args.join(' ')).toBe('');
      expect(r.stderr.trim().split('\n').length, args.join(' ')).toBe(1);
    }
  });

  it('never prints the secret', async () => {
    const home = tempDir();
    const r = await runCli(['--home', home, 'verify', '--signature', 'a'.repeat(64), '--secret-env', 'S', '--json'], {
      env: { S: 'canary-secret-value' },
      input: '{}',
    });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).not.toContain('canary-secret-value');
  });
});
