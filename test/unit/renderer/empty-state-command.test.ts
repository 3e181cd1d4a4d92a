// The empty state's command must sign exactly as the platform does: run it through bash and openssl
// against a stand-in proxy and check the signature with the project's own sign().
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import { closeAfterTest } from '../../helpers/closing';
import { startRecorder } from '../../helpers/servers';
import { freshTestDepositId, signedCurlCommand, testPayBody } from '../../../src-renderer/features/captures/test-callback';

describe("the empty state's test callback command", () => {
  it('sends the body with the HMAC-SHA256 of its exact bytes, from $WD_SECRET', async () => {
    const server = closeAfterTest(await startRecorder());
    const depositId = freshTestDepositId(new Date(1_700_000_000_000));
    const secret = 's3cret with spaces';
    await promisify(execFile)('bash', ['-c', signedCurlCommand(`${server.url}/`, depositId)], { env: { ...process.env, WD_SECRET: secret } });
    const received = server.received;
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.url).toBe('/platform/pay');
    expect(got.body.toString('utf8')).toBe(testPayBody(depositId));
    expect(got.headers['x-server-authorization']).toBe(sign(got.body, secret));
  });

  it("posts under the profile's callback prefix, in its currency", async () => {
    const server = closeAfterTest(await startRecorder());
    const depositId = freshTestDepositId(new Date(1_700_000_000_001));
    await promisify(execFile)('bash', ['-c', signedCurlCommand(server.url, depositId, '/acme', 'JPY')], { env: { ...process.env, WD_SECRET: 'k' } });
    const got = server.received[0]!;
    expect(got.url).toBe('/acme/pay');
    expect(JSON.parse(got.body.toString('utf8'))).toMatchObject({ depositId, currency: 'JPY' });
    expect(got.headers['x-server-authorization']).toBe(sign(got.body, 'k'));
  });
});
