// The desk's side of docs/CALLBACKS.md, run as it is written there: `serve
// --tls-self-signed 127.0.0.1` answers HTTPS with a certificate kept in the data directory, curl trusts
// it with --cacert and its signed pay is captured (over https); the public URL and the exact callback
// URLs are printed and are in the status the UI shows.
import { execFile } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { sign } from '../../../src-main/core/signing';
import { runCli } from '../../helpers/cli';
import { tempDir } from '../../helpers/temp';
import { startServe } from './serve-process';

const run = promisify(execFile);

async function curl(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('curl', ['--silent', '--show-error', '--max-time', '20', ...args]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('serve over HTTPS, as documented', () => {
  it('answers HTTPS with the self-signed certificate it wrote; curl --cacert captures a signed pay; the public URL is shown', async () => {
    const home = tempDir();
    const env = { WD_SECRET: 'the shared secret' };
    expect((await runCli(['--home', home, 'profile', 'set', 'acme', '--secret-env', 'WD_SECRET'], { env })).code).toBe(0);
    const serve = await startServe([
      '--home',
      home,
      'serve',
      '--proxy-port',
      '0',
      '--tls-self-signed',
      '127.0.0.1',
      '--public-url',
      'https://desk.example.net',
    ]);
    expect(serve.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);

    const certFile = join(home, 'tls', 'proxy-cert.pem');
    const fingerprint = new X509Certificate(readFileSync(certFile)).fingerprint256;
    const tlsLine = await serve.waitForStdout(/^tls: /);
    expect(tlsLine).toBe(`tls: ${certFile} (self-signed for 127.0.0.1, until ${tlsLine.match(/until (\S+)\)/)![1]}) SHA-256 ${fingerprint}`);
    expect(statSync(join(home, 'tls', 'proxy-key.pem')).mode & 0o777).toBe(0o600);
    expect(await serve.waitForStdout(/^public: /)).toBe('public: https://desk.example.net');
    expect(await serve.waitForStdout(/^callback pay: /)).toBe('callback pay: https://desk.example.net/platform/pay');
    expect(await serve.waitForStdout(/^callback results: /)).toBe('callback results: https://desk.example.net/platform/results');

    const body = JSON.stringify({ userId: 'u-tls', depositId: 'dep-tls-1', currency: 'USD', amount: 5 });
    const bodyFile = join(home, 'pay.json');
    writeFileSync(bodyFile, body);
    const signature = sign(Buffer.from(body), env.WD_SECRET);

    // Without the certificate, curl refuses the connection (exit 60: the peer's certificate is not trusted).
    const untrusted = await curl(['-X', 'POST', '--data-binary', `@${bodyFile}`, `${serve.url}/platform/pay`]);
    expect(untrusted.code).toBe(60);

    const trusted = await curl([
      '--cacert',
      certFile,
      '-H',
      'content-type: application/json',
      '-H',
      `x-server-authorization: ${signature}`,
      '--data-binary',
      `@${bodyFile}`,
      '--write-out',
      '\n%{http_code}',
      `${serve.url}/platform/pay`,
    ]);
    expect(trusted.stderr).toBe('');
    const [answer, status] = trusted.stdout.split('\n');
    expect(status).toBe('200');
    expect(JSON.parse(answer!)).toMatchObject({ status: 'ok' });

    // The status the UI's status bar reads.
    const ui = await serve.waitForStdout(/^ui: (\S+)$/);
    const uiUrl = new URL(ui.slice('ui: '.length));
    const token = uiUrl.hash.replace('#token=', '');
    const reply = await fetch(new URL('/api/getStatus', uiUrl), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '[]',
    });
    const desk = (await reply.json()) as { value: { proxy: Record<string, unknown> } };
    expect(desk.value.proxy).toMatchObject({
      url: serve.url,
      publicUrl: 'https://desk.example.net',
      callbackUrls: { pay: 'https://desk.example.net/platform/pay' },
      tls: { source: 'self-signed', fingerprint256: fingerprint },
    });
    expect((await serve.stop('SIGTERM')).code).toBe(0);

    const listed = JSON.parse((await runCli(['--home', home, 'captures', '--json'])).stdout) as Array<{
      id: number;
      depositId: string;
      signature: { verdict: string | null };
      error: string | null;
    }>;
    // Newest first: the signed pay, then the untrusted attempt's failed handshake (a row, no request).
    expect(listed, JSON.stringify(listed)).toHaveLength(2);
    expect(listed[0]).toMatchObject({ depositId: 'dep-tls-1', signature: { verdict: 'valid' } });
    expect(listed[1]!.error).toMatch(/the TLS handshake failed .*no request was received/s);
    const shown = JSON.parse((await runCli(['--home', home, 'show', String(listed[0]!.id), '--json'])).stdout) as { scheme: string };
    expect(shown.scheme).toBe('https');

    // The next run for the same host reuses the certificate curl was given.
    const again = await startServe(['--home', home, 'serve', '--no-ui', '--proxy-port', '0', '--tls-self-signed', '127.0.0.1']);
    expect(await again.waitForStdout(/^tls: /)).toContain(fingerprint);
    expect(await again.waitForStdout(/^callback pay: /)).toBe(`callback pay: ${again.url}/platform/pay`);
    expect((await again.stop('SIGTERM')).code).toBe(0);
  });

  it('refuses --tls-cert without --tls-key, and a certificate file that is not one, with exit 2 and a reason', async () => {
    const home = tempDir();
    const half = await runCli(['--home', home, 'serve', '--proxy-port', '0', '--tls-cert', join(home, 'c.pem')]);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('--tls-cert and --tls-key go together');
    writeFileSync(join(home, 'c.pem'), 'nope');
    writeFileSync(join(home, 'k.pem'), 'nope');
    const bad = await runCli(['--home', home, 'serve', '--proxy-port', '0', '--tls-cert', join(home, 'c.pem'), '--tls-key', join(home, 'k.pem')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('is not a PEM certificate');
  });
});
