// The README's commands, run as it writes them: its opening two commands are the ones a newcomer types, its
// first session (terminal 1 keeps `serve` running while terminal 2's lines run one after another) captures,
// shows and replays a pay, and its team block carries a callback through a proxy on a real PostgreSQL to
// another desk's `tail`. `npx wager-desk` runs the CLI under test; the only words replaced are the ones a
// test cannot use: the default port 8787 (the suite holds it) and the example hosts.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { cliCommand, runCli } from '../../helpers/cli';
import { freePort } from '../../helpers/embedded-postgres';
import { startOperator } from '../../helpers/operator';
import { usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

/** The first ```sh block from `from` on. */
function blockFrom(from: number): string {
  const start = readme.indexOf('```sh\n', from);
  expect(start, 'a ```sh block').toBeGreaterThan(-1);
  return readme.slice(start + 6, readme.indexOf('\n```', start + 6));
}

/** The first ```sh block after the heading `## TITLE`. */
function blockAfter(title: string): string {
  const at = readme.indexOf(`\n## ${title}\n`);
  expect(at, `README has a "## ${title}" section`).toBeGreaterThan(-1);
  return blockFrom(at);
}

/** The block's commands: one a line, comments and blank lines left out (a line's own comment stays: bash skips it). */
const commands = (block: string): string[] => block.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));

/** A bash prelude in which `npx wager-desk ...` runs the CLI under test, in `dir`. */
function shell(dir: string): string {
  const { cmd, args } = cliCommand();
  const bin = join(dir, 'wager-desk');
  const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
  writeFileSync(bin, `#!/bin/sh\nexec ${[cmd, ...args].map(quote).join(' ')} "$@"\n`);
  chmodSync(bin, 0o755);
  return `npx() { if [ "$1" = wager-desk ]; then shift; ${quote(bin)} "$@"; else command npx "$@"; fi; }\n`;
}

interface Run {
  code: number | null;
  out: string;
}

function bash(script: string, cwd: string, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

const running: ChildProcess[] = [];

afterEach(async () => {
  await Promise.all(
    running.splice(0).map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('close', () => resolve());
          process.kill(-child.pid!, 'SIGTERM');
        }),
    ),
  );
});

/** A long-running command (`serve`, `tail`) in its own process group, resolved once its output matches `ready`. */
function background(script: string, cwd: string, env: Record<string, string>, ready: RegExp): Promise<{ output: () => string }> {
  const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  running.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (d: Buffer): void => {
      out += d.toString();
      if (ready.test(out)) resolve({ output: () => out });
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.on('close', (code) => reject(new Error(`exited (${code}) before it was ready:\n${out}`)));
  });
}

/** `npx wager-desk serve ...` given a port of the test's choosing: the suite holds the default one. */
const onPort = (line: string, port: number): string => line.replace(/wager-desk serve\b/, `wager-desk serve --proxy-port ${port}`);

describe('README', () => {
  it('opens on the two commands a newcomer types, and stays short', () => {
    const opening = blockFrom(0);
    expect(commands(opening).map((line) => line.split('#')[0]!.trim())).toEqual(['npm install && npm start', 'npm test']);
    expect(readme.split('\n').length).toBeLessThan(250);
    expect(readme).toMatch(/^npm test takes about \d+ minutes on a two-core machine\.$/m);
  });

  it('runs the first session as written: a pay captured, shown, replayed edited, and its REFUND sent', async () => {
    const dir = tempDir('wager-desk-readme-');
    const port = await freePort();
    const block = blockAfter('A first session').replaceAll('127.0.0.1:8787', `127.0.0.1:${port}`);
    const [terminal1, terminal2] = block.split(/^# terminal 2.*$/m) as [string, string];
    const env = { WAGER_DESK_HOME: join(dir, 'home') };
    const prelude = shell(dir);

    const first = commands(terminal1);
    expect(first.at(-1)).toMatch(/^npx wager-desk serve\b/);
    await background(prelude + first.map((line) => onPort(line, port)).join('\n'), dir, env, /^ui: http:\/\/127\.0\.0\.1:\d+\/#token=/m);

    const second = commands(terminal2);
    expect(second.length).toBeGreaterThanOrEqual(5);
    for (const line of second) {
      const run = await bash(prelude + line, dir, env);
      expect(run.code, `${line}\n${run.out}`).toBe(0);
    }

    const listed = await runCli(['captures', '--json'], { env });
    expect(listed.code, listed.stderr).toBe(0);
    const captures = JSON.parse(listed.stdout) as Array<{
      id: number;
      kind: string;
      result: string | null;
      signature: { verdict: string };
      response: { status: number } | null;
    }>;
    expect(captures.map((c) => c.kind).sort()).toEqual(['pay', 'pay', 'results']);
    expect(captures.every((c) => c.signature.verdict === 'valid' && c.response?.status === 200)).toBe(true);
    expect(captures.find((c) => c.kind === 'results')?.result).toBe('REFUND');
    const edited = await runCli(['show', String(Math.max(...captures.filter((c) => c.kind === 'pay').map((c) => c.id))), '--json'], { env });
    const body = Buffer.from((JSON.parse(edited.stdout) as { request: { bodyBase64: string } }).request.bodyBase64, 'base64').toString('utf8');
    expect(JSON.parse(body)).toMatchObject({ amount: 750 });
  }, 120_000);

  describe('a team in five lines', () => {
    const server = usePostgres();

    it('carries a callback through a proxy on the team database to another desk’s tail', async () => {
      const dir = tempDir('wager-desk-readme-team-');
      const database = await server().newDatabase();
      const operator = await startOperator({ secret: 'no secret: the proxy has no profile' });
      try {
        const block = blockAfter('A team in five lines')
          .replaceAll('postgres://desk:PASSWORD@db.internal:5432/wager_desk', database)
          .replaceAll('https://staging.operator.example', operator.url);
        const lines = commands(block);
        expect(lines).toHaveLength(5);
        const prelude = shell(dir);
        const exports = lines.filter((line) => line.startsWith('export '));
        const withExports = (line: string): string => [prelude, ...exports, line].join('\n');
        const desk = (name: string): Record<string, string> => ({ WAGER_DESK_HOME: join(dir, name) });

        const [makeKey, , migrate, serve, tail] = lines as [string, string, string, string, string];
        for (const line of [makeKey, migrate]) {
          const run = await bash(withExports(line), dir, desk('admin'));
          expect(run.code, `${line}\n${run.out}`).toBe(0);
        }
        const proxy = await background(withExports(onPort(serve, 0)), dir, desk('proxy'), /^callback results: /m);
        const proxyUrl = /^proxy: (http:\/\/127\.0\.0\.1:\d+)$/m.exec(proxy.output())![1]!;
        const laptop = await background(withExports(tail), dir, desk('laptop'), /following the exchange log/);

        const depositId = `readme-${Date.now()}`;
        const body = JSON.stringify({ userId: 'readme-user', depositId, currency: 'USD', amount: 100 });
        const answer = await fetch(`${proxyUrl}/platform/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
        await answer.arrayBuffer();
        expect(operator.requests.map((r) => r.body.toString('utf8'))).toContain(body);
        await expect.poll(() => laptop.output()).toContain(depositId);
      } finally {
        await operator.close();
      }
    }, 120_000);
  });
});
