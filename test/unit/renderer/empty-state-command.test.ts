// The empty state's command must sign exactly as the platform does: run it through bash and openssl
// against a stand-in proxy and check the signature with the project's own sign().
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import { freshTestDepositId, signedCurlCommand, testPayBody } from '../../../src-renderer/features/captures/test-callback';

describe("the empty state's test callback command", () => {
  it('sends the body with the HMAC-SHA256 of its exact bytes', async () => {
    const received: Array<{ path: string; signature: string | undefined; body: Buffer }> = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', signature: req.headers['x-server-authorization'] as string | undefined, body: Buffer.concat(chunks) });
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const depositId = freshTestDepositId(new Date(1_700_000_000_000));
      const secret = 's3cret with spaces';
      await promisify(execFile)('bash', ['-c', signedCurlCommand(url, depositId)], { env: { ...process.env, WAGER_SECRET: secret } });
      expect(received).toHaveLength(1);
      const got = received[0]!;
      expect(got.path).toBe('/platform/pay');
      expect(got.body.toString('utf8')).toBe(testPayBody(depositId));
      expect(got.signature).toBe(sign(got.body, secret));
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
