// A team's desks share one key: a key file given by --key-file or WAGER_DESK_KEY_FILE, or the key itself in
// WAGER_DESK_KEY. Two data directories with one key file open each other's sealed secrets; a given key file
// that is missing is named and never made; the given file gets the same checks as the default one; and a
// key from the environment never shows in any output, message or file of the data directory.
import { randomBytes } from 'node:crypto';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { DATABASE_FILE, KEY_FILE } from '../../src-main/core/store/sqlite';
import { closeAfterTest } from '../helpers/closing';
import { runCli, type CliResult } from '../helpers/cli';
import { tempDir } from '../helpers/temp';
import { send, startProxy } from '../integration/proxy/helpers';

const SECRET = 'shared-key-secret-p';
const body = '{"userId":"u","depositId":"d-1","currency":"USD","amount":1}';
const signature = sign(Buffer.from(body), SECRET);

/** A private 32-byte key file, as a team would hand it around. */
function teamKeyFile(dir: string, name = 'team.key'): { file: string; key: Buffer } {
  const key = randomBytes(32);
  const file = join(dir, name);
  writeFileSync(file, key, { mode: 0o600 });
  return { file, key };
}

/** The forms a key could leak in: its bytes, as they are given (base64), and in hex and base64url. */
function keyForms(key: Buffer): string[] {
  return [key.toString('base64'), key.toString('hex'), key.toString('base64url'), key.toString('base64').slice(0, 20)];
}

function expectOneLineRefusal(result: CliResult, why: RegExp): void {
  expect(result.code, result.stderr).toBe(2);
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(why);
  expect(lines[0]).not.toMatch(/internal error/);
}

/** Copies a closed desk's database into another data directory (what `db copy` or a backup hands over). */
function copyDatabase(from: string, to: string): void {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  for (const name of readdirSync(from).filter((n) => n.startsWith(DATABASE_FILE))) copyFileSync(join(from, name), join(to, name));
}

describe('two data directories sharing one key file', () => {
  it('one desk opens and verifies with the secrets another sealed, over a copied database; neither makes a key of its own', async () => {
    const root = tempDir();
    const { file: keyFile } = teamKeyFile(root);
    const homeA = join(root, 'a');
    const homeB = join(root, 'b');

    const sealedByA = await runCli(['--home', homeA, '--key-file', keyFile, 'profile', 'set', 'p', '--secret-env', 'S'], { env: { S: SECRET } });
    expect(sealedByA.code, sealedByA.stderr).toBe(0);
    copyDatabase(homeA, homeB);

    const verified = await runCli(['--home', homeB, '--key-file', keyFile, 'verify', '--signature', signature, '-'], { input: body });
    expect(verified.code, verified.stderr).toBe(0);
    // The same through WAGER_DESK_KEY_FILE, and the proxy of a desk over B verifies A's secret too.
    const byVariable = await runCli(['--home', homeB, 'verify', '--signature', signature, '-'], { input: body, env: { WAGER_DESK_KEY_FILE: keyFile } });
    expect(byVariable.code, byVariable.stderr).toBe(0);
    const deskB = closeAfterTest(createDesk({ home: homeB, keyFile }));
    const { url } = await startProxy(deskB);
    expect((await send(url, { body, headers: { 'x-server-authorization': signature } })).status).toBe(200);
    expect((await send(url, { body, headers: { 'x-server-authorization': sign(Buffer.from(body), 'wrong') } })).status).toBe(401);
    await deskB.close();

    expect(existsSync(join(homeA, KEY_FILE))).toBe(false);
    expect(existsSync(join(homeB, KEY_FILE))).toBe(false);

    // Without the team's key, B's own default key file is missing beside sealed secrets: refused, as a lost key.
    const withoutKey = await runCli(['--home', homeB, 'verify', '--signature', signature, '-'], { input: body });
    expectOneLineRefusal(withoutKey, /secrets\.key is missing.*profile "p"/);
  }, 180_000);

  it('two desks on one data directory, one given the file and one WAGER_DESK_KEY_FILE, open what the other sealed', async () => {
    const root = tempDir();
    const { file: keyFile } = teamKeyFile(root);
    const home = join(root, 'shared');
    const deskA = closeAfterTest(createDesk({ home, keyFile }));
    const deskB = closeAfterTest(createDesk({ home, environment: { WAGER_DESK_KEY_FILE: keyFile } }));
    expect((await deskA.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
    expect((await deskB.saveProfile({ name: 'q', callbackPrefix: '/q', secret: 'shared-key-secret-q' })).ok).toBe(true);
    for (const desk of [deskA, deskB]) {
      const status = await desk.getStatus();
      expect(status.ok && status.value.secretsKeyProblem).toBeNull();
    }
    const cli = await runCli(['--home', home, '--key-file', keyFile, 'status', '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ secretsKey: { from: 'given-file', file: keyFile, namedBy: '--key-file' }, secretsKeyProblem: null });
  }, 180_000);
});

describe('a given key file that does not exist', () => {
  it('is named in status and in every refusal, nothing is made, and captures still list', async () => {
    const root = tempDir();
    const home = join(root, 'home');
    const keyFile = join(root, 'keys', 'team.key');

    const status = await runCli(['--home', home, '--key-file', keyFile, 'status', '--json']);
    expect(status.code, status.stderr).toBe(0);
    const parsed = JSON.parse(status.stdout) as { secretsKey: unknown; secretsKeyProblem: string };
    expect(parsed.secretsKey).toEqual({ from: 'given-file', file: keyFile, namedBy: '--key-file' });
    expect(parsed.secretsKeyProblem).toContain(keyFile);
    expect(parsed.secretsKeyProblem).toMatch(/does not exist: Wager Desk never makes a key file it is given.*captures can be listed and read/);

    const saved = await runCli(['--home', home, 'profile', 'set', 'p', '--secret-env', 'S'], { env: { S: SECRET, WAGER_DESK_KEY_FILE: keyFile } });
    expectOneLineRefusal(saved, /team\.key \(given by WAGER_DESK_KEY_FILE\) does not exist/);
    expect(saved.stderr).toContain(keyFile);

    const text = await runCli(['--home', home, '--key-file', keyFile, 'status']);
    expect(text.stdout).toContain(`key: ${keyFile} (given by --key-file)`);
    const list = await runCli(['--home', home, '--key-file', keyFile, 'captures']);
    expect(list.code, list.stderr).toBe(0);

    expect(existsSync(keyFile)).toBe(false);
    expect(existsSync(join(root, 'keys'))).toBe(false);
    expect(existsSync(join(home, KEY_FILE))).toBe(false);
  }, 180_000);

  it('beside sealed secrets: serve and verify refuse naming it, captures and show still work', async () => {
    const root = tempDir();
    const { file: keyFile } = teamKeyFile(root);
    const home = join(root, 'home');
    const desk = createDesk({ home, keyFile });
    try {
      expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
      const { url } = await startProxy(desk);
      expect((await send(url, { body, headers: { 'x-server-authorization': signature } })).status).toBe(200);
    } finally {
      await desk.close();
    }
    const elsewhere = join(root, 'not-there.key');
    const why = /not-there\.key \(given by --key-file\) does not exist, and the database holds secrets sealed with a key \(the secrets of profile "p"\)/;

    expectOneLineRefusal(await runCli(['--home', home, '--key-file', elsewhere, 'serve', '--proxy-port', '0', '--no-ui']), why);
    expectOneLineRefusal(await runCli(['--home', home, '--key-file', elsewhere, 'verify', '--signature', signature, '-'], { input: body }), why);
    const list = await runCli(['--home', home, '--key-file', elsewhere, 'captures']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('d-1');
    const show = await runCli(['--home', home, '--key-file', elsewhere, 'show', '1']);
    expect(show.code, show.stderr).toBe(0);
    // Re-entering a secret is no way out here: the desk would have to make the team's key file.
    const reentered = await runCli(['--home', home, '--key-file', elsewhere, 'profile', 'set', 'p', '--secret-env', 'S'], { env: { S: SECRET } });
    expectOneLineRefusal(reentered, why);
    expect(existsSync(elsewhere)).toBe(false);
  }, 180_000);
});

describe('a given key file that is not the key the secrets were sealed with', () => {
  it('is refused naming it; re-entering a secret seals with it and leaves the file as it was', async () => {
    const root = tempDir();
    const { file: sealingKey } = teamKeyFile(root, 'sealing.key');
    const { file: otherKey } = teamKeyFile(root, 'other.key');
    const before = readFileSync(otherKey);
    const home = join(root, 'home');
    const sealed = await runCli(['--home', home, '--key-file', sealingKey, 'profile', 'set', 'p', '--secret-env', 'S'], { env: { S: SECRET } });
    expect(sealed.code, sealed.stderr).toBe(0);

    const refused = await runCli(['--home', home, '--key-file', otherKey, 'verify', '--signature', signature, '-'], { input: body });
    expectOneLineRefusal(refused, /other\.key \(given by --key-file\) does not open the secrets stored in the database \(the secrets of profile "p"\)/);
    expect(refused.stderr).toContain(otherKey);

    const reentered = await runCli(['--home', home, '--key-file', otherKey, 'profile', 'set', 'p', '--secret-env', 'S'], { env: { S: SECRET } });
    expect(reentered.code, reentered.stderr).toBe(0);
    const verified = await runCli(['--home', home, '--key-file', otherKey, 'verify', '--signature', signature, '-'], { input: body });
    expect(verified.code, verified.stderr).toBe(0);
    expect(readFileSync(otherKey)).toEqual(before);
    expect(existsSync(join(home, KEY_FILE))).toBe(false);
  }, 180_000);
});

describe("a given key file gets the default file's checks", () => {
  const kinds: Array<{ name: string; make: (file: string) => void; why: RegExp }> = [
    {
      name: 'readable by group',
      make: (f) => {
        writeFileSync(f, randomBytes(32), { mode: 0o600 });
        chmodSync(f, 0o640);
      },
      why: /can be read by group or others \(mode 0640\)/,
    },
    { name: 'a directory', make: (f) => mkdirSync(f, { mode: 0o700 }), why: /is damaged \(it is a directory, not a regular file\)/ },
    { name: 'a 33-byte file', make: (f) => writeFileSync(f, randomBytes(33), { mode: 0o600 }), why: /is damaged \(expected 32 bytes, found 33\)/ },
  ];
  for (const kind of kinds) {
    it(`${kind.name}: refused, naming the given file, and left as it was`, async () => {
      const root = tempDir();
      const keyFile = join(root, 'team.key');
      kind.make(keyFile);
      const desk = closeAfterTest(createDesk({ home: join(root, 'home'), keyFile }));
      const saved = await desk.saveProfile({ name: 'p', secret: SECRET });
      expect(saved.ok).toBe(false);
      const message = saved.ok ? '' : saved.error.message;
      expect(message).toContain(`${keyFile} (given by --key-file)`);
      expect(message).toMatch(kind.why);
      expect(existsSync(join(root, 'home', KEY_FILE))).toBe(false);
    });
  }
});

describe('the key in WAGER_DESK_KEY', () => {
  it("is a key file's bytes in base64: what one seals, the file opens, and no key file is made", async () => {
    const root = tempDir();
    const { file: keyFile, key } = teamKeyFile(root);
    const home = join(root, 'home');
    const env = { WAGER_DESK_KEY: key.toString('base64'), S: SECRET };

    const saved = await runCli(['--home', home, 'profile', 'set', 'p', '--secret-env', 'S'], { env });
    expect(saved.code, saved.stderr).toBe(0);
    const status = await runCli(['--home', home, 'status', '--json'], { env });
    expect(JSON.parse(status.stdout)).toMatchObject({ secretsKey: { from: 'environment', file: null, namedBy: 'WAGER_DESK_KEY' }, secretsKeyProblem: null });
    const text = await runCli(['--home', home, 'status'], { env });
    expect(text.stdout).toContain('key: from WAGER_DESK_KEY');
    const verified = await runCli(['--home', home, '--key-file', keyFile, 'verify', '--signature', signature, '-'], { input: body });
    expect(verified.code, verified.stderr).toBe(0);
    expect(existsSync(join(home, KEY_FILE))).toBe(false);
  }, 180_000);

  it('malformed: refused in one line that names the variable and quotes nothing of it', async () => {
    const home = tempDir();
    const key = randomBytes(32);
    const values = ['canary-not-a-key-7f3a', key.toString('hex'), key.toString('base64url'), randomBytes(31).toString('base64'), ''];
    for (const value of values) {
      const env = { WAGER_DESK_KEY: value, S: SECRET };
      const saved = await runCli(['--home', home, 'profile', 'set', 'p', '--secret-env', 'S'], { env });
      expectOneLineRefusal(saved, /WAGER_DESK_KEY does not hold a key: it must be the 32 bytes of a key file in base64/);
      const status = await runCli(['--home', home, 'status', '--json'], { env });
      expect(status.code, status.stderr).toBe(0);
      expect((JSON.parse(status.stdout) as { secretsKeyProblem: string }).secretsKeyProblem).toMatch(/WAGER_DESK_KEY does not hold a key/);
      if (value !== '') {
        for (const out of [saved.stdout, saved.stderr, status.stdout, status.stderr]) {
          expect(out).not.toContain(value);
          expect(out).not.toContain(value.slice(0, 12));
        }
      }
    }
    expect(existsSync(join(home, KEY_FILE))).toBe(false);
  }, 180_000);

  it('never appears in any output, message or file of the data directory, also when it is the wrong key', async () => {
    const home = tempDir();
    const key = randomBytes(32);
    const other = randomBytes(32);
    const env = { WAGER_DESK_KEY: key.toString('base64'), S: SECRET };
    const wrong = { WAGER_DESK_KEY: other.toString('base64'), S: SECRET };
    const runs: CliResult[] = [];
    const run = async (args: string[], runEnv: Record<string, string>, input?: string): Promise<CliResult> => {
      const result = await runCli(['--home', home, ...args], { env: runEnv, ...(input !== undefined ? { input } : {}) });
      runs.push(result);
      return result;
    };

    expect((await run(['profile', 'set', 'p', '--secret-env', 'S'], env)).code).toBe(0);
    expect((await run(['status', '--json'], env)).code).toBe(0);
    expect((await run(['status'], env)).code).toBe(0);
    expect((await run(['profile', 'list', '--json'], env)).code).toBe(0);
    expect((await run(['verify', '--signature', signature, '-'], env, body)).code).toBe(0);
    expect((await run(['sign', '-'], env, body)).code).toBe(0);
    expect((await run(['export', '--har', '-'], env)).code).toBe(0);
    // The wrong key: refused, naming the variable; and both variables at once: refused, quoting neither.
    expectOneLineRefusal(await run(['verify', '--signature', signature, '-'], wrong, body), /The key in WAGER_DESK_KEY does not open the secrets.*profile "p"/);
    const wrongStatus = await run(['status', '--json'], wrong);
    expect((JSON.parse(wrongStatus.stdout) as { secretsKeyProblem: string }).secretsKeyProblem).toMatch(/The key in WAGER_DESK_KEY does not open/);
    expectOneLineRefusal(
      await run(['status', '--json'], { ...env, WAGER_DESK_KEY_FILE: join(home, 'team.key') }),
      /WAGER_DESK_KEY_FILE and WAGER_DESK_KEY are both set/,
    );

    for (const form of [...keyForms(key), ...keyForms(other)]) {
      for (const r of runs) {
        expect(r.stdout).not.toContain(form);
        expect(r.stderr).not.toContain(form);
      }
      for (const name of readdirSync(home)) {
        const bytes = readFileSync(join(home, name));
        expect(bytes.includes(Buffer.from(form)), `${name} holds the key`).toBe(false);
      }
    }
    for (const name of readdirSync(home)) expect(readFileSync(join(home, name)).includes(key), `${name} holds the key's bytes`).toBe(false);
    expect(existsSync(join(home, KEY_FILE))).toBe(false);
  }, 180_000);
});
