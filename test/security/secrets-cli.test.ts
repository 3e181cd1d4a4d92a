// Promise 4, on the command line: the canaries enter only through environment variables (--secret-env,
// --api-key-env), are stored by `profile set`, and then go through serve (capture, verification and
// diagnosis), show, verify, sign, replay in each mode, send, check, token (a service that echoes the key
// too), export (HAR, ticket, cURL), import and prune, text and --json. Afterwards no stdout, no stderr,
// no exported file and no file of the data directory holds any canary, in clear, hex or base64.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sign } from '../../src-main/core/signing';
import { runCli, type CliResult } from '../helpers/cli';
import { startOperator } from '../helpers/operator';
import { tempDir } from '../helpers/temp';
import { send } from '../integration/proxy/helpers';
import { startServe } from '../integration/proxy/serve-process';
import { OPERATOR_ID, startTokenEndpoint } from '../integration/token/token-endpoint';
import { filePlaces, leaks } from './helpers/canary';
import { ALL_CANARIES, CANARY_API_KEY, CANARY_ENV_API_KEY, CANARY_ENV_SECRET, CANARY_OTHER_SECRET, CANARY_SECRET } from './helpers/canaries';

const ENV = { WD_SECRET: CANARY_SECRET, WD_KEY: CANARY_API_KEY, WD_OTHER: CANARY_OTHER_SECRET, WD_ONCE: CANARY_ENV_SECRET, WD_ONCE_KEY: CANARY_ENV_API_KEY };

describe('secrets stay secret (CLI)', () => {
  it('no canary in any output, export or data file after every command ran with it', { timeout: 90_000 }, async () => {
    const home = tempDir();
    const exportsDir = tempDir('wager-desk-canary-cli-');
    const operator = await startOperator({ secret: CANARY_SECRET });
    const endpoint = await startTokenEndpoint(CANARY_API_KEY);
    const outputs: Array<{ label: string; bytes: string }> = [];
    const cli = async (args: string[], expectCode: number | null = 0, input?: string): Promise<CliResult> => {
      const result = await runCli(['--home', home, ...args], { env: ENV, ...(input !== undefined ? { input } : {}) });
      outputs.push({ label: `${args.join(' ')} (stdout)`, bytes: result.stdout }, { label: `${args.join(' ')} (stderr)`, bytes: result.stderr });
      if (expectCode !== null) expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(expectCode);
      return result;
    };
    try {
      // Profiles, with the secrets read from the environment.
      await cli([
        'profile',
        'set',
        'canary',
        '--secret-env',
        'WD_SECRET',
        '--api-key-env',
        'WD_KEY',
        '--operator-url',
        operator.url,
        '--base-url',
        endpoint.url,
        '--operator-id',
        OPERATOR_ID,
      ]);
      await cli(['profile', 'set', 'other', '--callback-prefix', '/other', '--secret-env', 'WD_OTHER', '--json']);
      await cli(['profile', 'use', 'canary']);

      // serve, verifying with the stored profile, then with a secret given for the run only.
      for (const extra of [[], ['--secret-env', 'WD_ONCE']]) {
        const serve = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', ...extra], ENV);
        for (const [depositId, secret] of [
          ['d-valid', CANARY_SECRET],
          ['d-other', CANARY_OTHER_SECRET],
          ['d-once', CANARY_ENV_SECRET],
        ] as const) {
          const body = `{"userId":"u-1","depositId":"${depositId}","currency":"USD","amount":5}`;
          const reply = await send(serve.url, {
            body,
            headers: { 'content-type': 'application/json', 'x-server-authorization': sign(Buffer.from(body), secret) },
          });
          outputs.push({ label: `serve answer ${depositId}`, bytes: reply.body.toString('latin1') + JSON.stringify(reply.headers) });
        }
        const exit = await serve.stop('SIGTERM');
        expect(exit.code).toBe(0);
        outputs.push({ label: `serve ${extra.join(' ')} (stderr)`, bytes: serve.stderr() });
      }

      const list = JSON.parse((await cli(['captures', '--json'])).stdout) as Array<{ id: number; depositId: string; signature: { verdict: string } }>;
      expect(list.length).toBe(6);
      const source = list.find((x) => x.depositId === 'd-valid' && x.signature.verdict === 'valid')!.id;

      // Everything that sends, side by side (each its own process).
      endpoint.mode = 'ok';
      await Promise.all([
        cli(['replay', String(source), '--json']),
        cli(['replay', String(source), '--signature', 'custom', '--secret-env', 'WD_ONCE', '--json']),
        cli(['replay', String(source), '--signature', 'invalid']),
        cli(['send', 'win', '--json']),
        cli(['send', 'pay', '--secret-env', 'WD_ONCE', '--signature', 'custom']),
        cli(['check', '--user-id', 'u-check', '--json'], null),
        cli(['check', '--user-id', 'u-check-2', '--secret-env', 'WD_ONCE'], null),
        cli(['token', '--user-id', 'u-1', '--display-name', 'One', '--json']),
        cli(
          [
            'token',
            '--user-id',
            'u-1',
            '--display-name',
            'One',
            '--api-key-env',
            'WD_ONCE_KEY',
            '--base-url',
            endpoint.url,
            '--operator-id',
            OPERATOR_ID,
            '--json',
          ],
          null,
        ),
      ]);
      endpoint.mode = 'echo-key';
      await cli(['token', '--user-id', 'u-2', '--display-name', 'Two', '--json'], null);
      await cli(['token', '--user-id', 'u-2', '--display-name', 'Two', '--api-key-env', 'WD_ONCE_KEY'], null);
      expect(endpoint.seen.map((s) => s.headers['x-api-key']).sort()).toEqual([CANARY_API_KEY, CANARY_API_KEY, CANARY_ENV_API_KEY, CANARY_ENV_API_KEY].sort());
      expect(operator.requests.some((r) => r.rawSignatureValid)).toBe(true);

      // Everything that reads or exports, side by side.
      const har = join(exportsDir, 'all.har');
      const body = Buffer.from('{"userId":"u-1","depositId":"d-valid","currency":"USD","amount":5}');
      writeFileSync(join(exportsDir, 'body.json'), body);
      const all = JSON.parse((await cli(['captures', '--all', '--all-profiles', '--limit', '100000', '--json'])).stdout) as Array<{
        id: number;
        origin: string;
        kind: string;
      }>;
      // One exchange of each origin and kind: a capture, a replay, a send, a check step, a token request...
      const shown = [...new Map(all.map((x) => [`${x.origin}/${x.kind}`, x.id])).values()];
      expect(shown.length, JSON.stringify([...new Set(all.map((x) => `${x.origin}/${x.kind}`))])).toBeGreaterThanOrEqual(5);
      await Promise.all([
        cli(['profile', 'list', '--json']),
        cli(['profile', 'list']),
        cli(['captures', '--all']),
        cli(['export', '--har', har, '--all']),
        cli(['export', '--ticket', 'd-valid']),
        cli(['export', '--curl', String(source)]),
        cli(['verify', '--signature', sign(body, CANARY_OTHER_SECRET), join(exportsDir, 'body.json')], 1),
        cli(['verify', '--signature', sign(body, CANARY_SECRET), '--json', join(exportsDir, 'body.json')]),
        cli(['sign', '--secret-env', 'WD_ONCE', join(exportsDir, 'body.json')]),
        cli(['verify', '--signature', 'ab', '--secret-env', 'WD_MISSING', join(exportsDir, 'body.json')], 2),
        ...shown.flatMap((id) => [cli(['show', String(id), '--json']), cli(['show', String(id)])]),
      ]);
      expect(readFileSync(har, 'utf8')).toContain('"entries"');
      await cli(['import', '--har', har, '--json']);
      await cli(['prune', '--keep', '1000', '--json']);

      expect(outputs.length).toBeGreaterThan(60);
      expect(leaks(outputs, ALL_CANARIES)).toEqual([]);
      expect(
        leaks(
          filePlaces(exportsDir).filter((f) => !f.label.endsWith('body.json')),
          ALL_CANARIES,
        ),
      ).toEqual([]);
      expect(leaks(filePlaces(home), ALL_CANARIES)).toEqual([]);
    } finally {
      await operator.close();
      await endpoint.close();
    }
  });
});
