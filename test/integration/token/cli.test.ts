import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { closedPort } from '../proxy/helpers';
import { tempDir } from '../../helpers/temp';
import { filesHolding } from '../../security/helpers/canary';
import { OPERATOR_ID, startTokenEndpoint } from './token-endpoint';

const API_KEY = 'ak_cli_token_test_77';

describe('wager-desk token', () => {
  it('returns the token and its decoded claims as JSON, from explicit values', async () => {
    const endpoint = await startTokenEndpoint(API_KEY);
    try {
      const home = tempDir();
      const r = await runCli(
        [
          '--home',
          home,
          'token',
          '--user-id',
          'cli-user',
          '--display-name',
          'Cli User',
          '--base-url',
          endpoint.url,
          '--operator-id',
          OPERATOR_ID,
          '--api-key-env',
          'WD_KEY',
          '--json',
        ],
        { env: { WD_KEY: API_KEY } },
      );
      expect(r.code).toBe(0);
      const out = JSON.parse(r.stdout);
      expect(out.status).toBe(200);
      expect(out.token.split('.')).toHaveLength(3);
      expect(out.decoded.header).toEqual({ alg: 'HS256', typ: 'JWT' });
      expect(out.decoded.payload).toMatchObject({ sub: 'cli-user', name: 'Cli User' });
      expect(JSON.parse(out.body).data.token).toBe(out.token);
      expect(r.stdout).not.toContain(API_KEY);
      expect(endpoint.seen[0]!.headers['x-api-key']).toBe(API_KEY);
      // A key from the environment is used for the call and stored nowhere.
      expect(filesHolding(home, API_KEY)).toEqual([]);
    } finally {
      await endpoint.close();
    }
  });

  it('uses the stored profile, prints the claims for a person, and exits 1 without a token', async () => {
    const endpoint = await startTokenEndpoint(API_KEY);
    try {
      const home = tempDir();
      const desk = createDesk({ home });
      expect((await desk.saveProfile({ name: 'stage', baseUrl: endpoint.url, operatorId: OPERATOR_ID, apiKey: API_KEY })).ok).toBe(true);
      await desk.close();
      const ok = await runCli(['--home', home, 'token', '--user-id', 'u', '--display-name', 'N', '--profile', 'stage']);
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/^status: 200\ntoken: [\w-]+\.[\w-]+\.[\w-]+\nheader: \{"alg":"HS256","typ":"JWT"\}\n/);
      expect(ok.stdout).toMatch(/\nexp: \d{4}-\d\d-\d\dT/);
      expect(ok.stdout).toMatch(/\ntime left: expires in (59 min|1 h 0 min)/);
      expect(ok.stdout).toContain("cannot check the token's signature");

      endpoint.mode = 'server-error';
      const failed = await runCli(['--home', home, 'token', '--user-id', 'u', '--display-name', 'N', '--json']);
      expect(failed.code).toBe(1);
      expect(JSON.parse(failed.stdout)).toMatchObject({ status: 503, token: null, decoded: null, body: 'maintenance window, retry later' });
      expect(failed.stderr).toBe('wager-desk: The service answered 503 Service Unavailable: maintenance window, retry later\n');
    } finally {
      await endpoint.close();
    }
  });

  it('sends the stored key to another --base-url only with --confirm-base-url, and says how in its refusal', async () => {
    const own = await startTokenEndpoint(API_KEY);
    const other = await startTokenEndpoint(API_KEY);
    try {
      const home = tempDir();
      const desk = createDesk({ home });
      expect((await desk.saveProfile({ name: 'stage', baseUrl: own.url, operatorId: OPERATOR_ID, apiKey: API_KEY })).ok).toBe(true);
      await desk.close();
      const refused = await runCli(['--home', home, 'token', '--user-id', 'u', '--display-name', 'N', '--base-url', other.url]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('--confirm-base-url');
      expect(other.seen).toEqual([]);
      const confirmed = await runCli([
        '--home',
        home,
        'token',
        '--user-id',
        'u',
        '--display-name',
        'N',
        '--base-url',
        other.url,
        '--confirm-base-url',
        '--json',
      ]);
      expect(confirmed.code, confirmed.stderr).toBe(0);
      expect(other.seen[0]!.headers['x-api-key']).toBe(API_KEY);
      expect(own.seen).toEqual([]);
    } finally {
      await own.close();
      await other.close();
    }
  });

  it('exits 1 when no response came back, and 2 for usage and configuration errors', async () => {
    const home = tempDir();
    const refused = await runCli(
      [
        '--home',
        home,
        'token',
        '--user-id',
        'u',
        '--display-name',
        'N',
        '--base-url',
        `http://127.0.0.1:${await closedPort()}`,
        '--operator-id',
        'o',
        '--api-key-env',
        'K',
      ],
      { env: { K: 'k' } },
    );
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('status: no response');
    expect(refused.stderr).toMatch(/Connection refused/);
    const noConfig = await runCli(['--home', home, 'token', '--user-id', 'u', '--display-name', 'N']);
    expect(noConfig.code).toBe(2);
    expect(noConfig.stderr).toMatch(/^wager-desk: A token request needs the service base URL/);
    const noEnv = await runCli(['--home', home, 'token', '--user-id', 'u', '--display-name', 'N', '--api-key-env', 'UNSET_VAR_FOR_TEST']);
    expect(noEnv.code).toBe(2);
    expect(noEnv.stderr).toContain('UNSET_VAR_FOR_TEST');
    const noUser = await runCli(['--home', home, 'token', '--display-name', 'N']);
    expect(noUser.code).toBe(2);
  });
});
