// A sender that puts the shared secret itself where the signature belongs (a common integration mistake)
// must not leave that secret in clear in the database.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src-main/core/signing';
import { tempDir } from '../../helpers/temp';
import { latest, send, startProxy } from './helpers';
import { openDesk } from '../../helpers/desk';

describe('captured headers holding a stored secret', () => {
  it('are stored as the secret’s fingerprint marker, and the verdict is still judged on what was sent', async () => {
    const home = tempDir();
    const desk = openDesk(home);
    const secret = 'canary-secret-in-a-header-5b1e';
    await desk.saveProfile({ name: 'acme', secret });
    const proxy = await startProxy(desk);
    const body = JSON.stringify({ userId: 'u', depositId: 'd-redact', currency: 'USD', amount: 1 });
    const reply = await send(proxy.url, { body, headers: { 'content-type': 'application/json', 'x-server-authorization': secret, 'x-note': `key=${secret}` } });
    expect(reply.status).toBe(401);

    const x = await latest(desk);
    expect(x.signature.verdict).toBe('malformed');
    const stored = Object.fromEntries(x.request.headers.map(([k, v]) => [k.toLowerCase(), v]));
    const marker = `[redacted sha256:${fingerprint(secret)}]`;
    expect(stored['x-server-authorization']).toBe(marker);
    expect(stored['x-note']).toBe(marker);
    expect(stored['content-type']).toBe('application/json');

    await desk.close();
    for (const file of readdirSync(home)) expect(readFileSync(join(home, file)).includes(secret), file).toBe(false);
  });
});
