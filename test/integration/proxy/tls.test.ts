// The proxy's certificate: files checked before any listener is touched (expired, not the key's), and the
// self-signed one kept in the data directory, reused for the same hosts, made again when it expires.
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { describe, expect, it } from 'vitest';
import { checkTlsHosts, loadTls, tlsDir } from '../../../src-main/core/proxy/tls';
import { tempDir } from '../../helpers/temp';

async function expiredPair(dir: string): Promise<{ certFile: string; keyFile: string }> {
  const day = 24 * 60 * 60 * 1000;
  const made = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(Date.now() - 10 * day),
    notAfterDate: new Date(Date.now() - day),
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  mkdirSync(dir, { recursive: true });
  const certFile = join(dir, 'proxy-cert.pem');
  const keyFile = join(dir, 'proxy-key.pem');
  writeFileSync(certFile, made.cert);
  writeFileSync(keyFile, made.private);
  return { certFile, keyFile };
}

describe('the proxy certificate', () => {
  it('spells hosts one way and refuses what is not a host', () => {
    expect(checkTlsHosts([' LocalHost ', '0:0:0:0:0:0:0:1', '[::1]', '127.0.0.1'])).toEqual(['localhost', '::1', '127.0.0.1']);
    expect(() => checkTlsHosts([])).toThrow('at least one host');
    expect(() => checkTlsHosts(['bad host'])).toThrow('is not a host name or an IP address');
  });

  it('refuses expired certificate files', async () => {
    const pair = await expiredPair(tempDir());
    await expect(loadTls(pair, tempDir())).rejects.toThrow(`The TLS certificate ${pair.certFile} expired on`);
  });

  it('makes a self-signed certificate for the hosts, keeps it, reuses it, and makes it again once expired', async () => {
    const home = tempDir();
    const first = await loadTls({ selfSigned: ['127.0.0.1', 'localhost', '::1'] }, home);
    expect(first.status).toMatchObject({ source: 'self-signed', hosts: ['127.0.0.1', 'localhost', '::1'] });
    const certFile = join(tlsDir(home), 'proxy-cert.pem');
    expect(new X509Certificate(readFileSync(certFile)).fingerprint256).toBe(first.status.fingerprint256);
    // Same hosts, another order and spelling: the same certificate.
    const again = await loadTls({ selfSigned: ['0:0:0:0:0:0:0:1', 'LOCALHOST', '127.0.0.1'] }, home);
    expect(again.status.fingerprint256).toBe(first.status.fingerprint256);

    await expiredPair(tlsDir(home));
    const renewed = await loadTls({ selfSigned: ['127.0.0.1'] }, home);
    expect(new Date(renewed.status.validTo).getTime()).toBeGreaterThan(Date.now() + 300 * 24 * 60 * 60 * 1000);
    expect(new X509Certificate(readFileSync(certFile)).fingerprint256).toBe(renewed.status.fingerprint256);
  });
});
