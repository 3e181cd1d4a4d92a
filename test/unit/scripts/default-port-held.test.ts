// While the tests run, the proxy's default port on 127.0.0.1 is not free (test/setup/hold-default-port.ts,
// or a desk running on this machine): a test that starts a proxy without `port: 0` fails here too.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT } from '../../../src-main/core/proxy';

describe('the default proxy port during the tests', () => {
  it('cannot be listened on', async () => {
    const server = net.createServer();
    const outcome = await new Promise<string>((resolve) => {
      server.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
      server.listen({ host: DEFAULT_PROXY_HOST, port: DEFAULT_PROXY_PORT, exclusive: true }, () => {
        server.close(() => resolve('listening'));
      });
    });
    expect(outcome).toBe('EADDRINUSE');
  });
});
