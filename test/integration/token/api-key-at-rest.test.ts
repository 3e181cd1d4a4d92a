// The proof the issue asks for: after token requests (one to a service that echoes the key back),
// a HAR export and a cURL copy, no file of the data directory (database, WAL, shm, key file, the
// export) holds the API key in clear, in UTF-8 or base64.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { tempDir } from '../../helpers/temp';
import { filesHolding, filesUnder } from '../../security/helpers/canary';
import { OPERATOR_ID, startTokenEndpoint } from './token-endpoint';

const STORED_KEY = 'ak_stored_9d8c7b6a5f4e3d2c1b0a';
const CLI_KEY = 'ak_explicit_0a1b2c3d4e5f6a7b8c9d';

describe('the API key at rest', () => {
  it('appears nowhere in clear in the data directory or the exports', async () => {
    const home = tempDir();
    const desk = createDesk({ home });
    const endpoint = await startTokenEndpoint(STORED_KEY);
    try {
      expect((await desk.saveProfile({ name: 'p', baseUrl: endpoint.url, operatorId: OPERATOR_ID, apiKey: STORED_KEY, secret: 'a-signing-secret' })).ok).toBe(
        true,
      );
      const ok = await desk.requestToken({ userId: 'u1', displayName: 'One' });
      expect(ok.ok && ok.value.token).toBeTruthy();
      endpoint.mode = 'server-error';
      expect((await desk.requestToken({ userId: 'u2', displayName: 'Two' })).ok).toBe(true);
      endpoint.mode = 'echo-key';
      const echoed = await desk.requestToken({ userId: 'u3', displayName: 'Three' });
      const explicit = await desk.requestToken({ userId: 'u4', displayName: 'Four', apiKey: CLI_KEY });
      // The echo is shown with the key replaced, in the result as in the store.
      expect(echoed.ok && echoed.value.body).toContain('forbidden key [redacted sha256:');
      expect(explicit.ok && explicit.value.status).toBe(403);
      expect(endpoint.seen.map((s) => s.headers['x-api-key'])).toEqual([STORED_KEY, STORED_KEY, STORED_KEY, CLI_KEY]);

      const har = await desk.exportHar({ direction: 'all' });
      expect(har.ok).toBe(true);
      if (har.ok) writeFileSync(join(home, 'export.har'), har.value);
      const curl = await desk.curlFor(echoed.ok ? echoed.value.exchangeId : 0);
      expect(curl.ok).toBe(true);
      if (curl.ok) writeFileSync(join(home, 'copied-curl.sh'), curl.value);
      const history = await desk.listTokenHistory();
      expect(JSON.stringify(history)).not.toContain(STORED_KEY);

      // While the desk is open the WAL holds the recent writes: it must be among the files searched.
      expect(existsSync(join(home, 'wager-desk.sqlite-wal'))).toBe(true);
      expect(filesUnder(home).length).toBeGreaterThanOrEqual(5);
      expect(filesHolding(home, STORED_KEY)).toEqual([]);
      expect(filesHolding(home, CLI_KEY)).toEqual([]);
    } finally {
      await desk.close();
      await endpoint.close();
    }
    // And after the close has checkpointed the WAL into the database.
    expect(filesHolding(home, STORED_KEY)).toEqual([]);
    expect(filesHolding(home, CLI_KEY)).toEqual([]);
    // The search itself works: a file that does hold the key is found.
    writeFileSync(join(home, 'control.txt'), `key=${STORED_KEY}`);
    expect(filesHolding(home, STORED_KEY)).toEqual([join(home, 'control.txt')]);
  });
});
