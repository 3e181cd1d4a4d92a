// The proxy's certificate: PEM files the user has, or a self-signed one the desk makes for the names and
// addresses the platform (or a tunnel, or curl) will use, kept in the data directory so that a client
// that trusted it once keeps trusting it across restarts. Every problem is found here, before any
// listener is touched: an unreadable file, a key that is not the certificate's, an expired certificate.
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { createSecureContext } from 'node:tls';
import type { ProxyTls, ProxyTlsStatus } from '../../shared/model';
import { DeskFailure } from '../result';

/** What an HTTPS listener is made with, and what the status says of it. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
  status: ProxyTlsStatus;
}

/** A self-signed certificate is made again when it has less than this left. */
const RENEW_BEFORE_MS = 24 * 60 * 60 * 1000;
const SELF_SIGNED_DAYS = 365;

export const SELF_SIGNED_CERT = 'proxy-cert.pem';
export const SELF_SIGNED_KEY = 'proxy-key.pem';

/** The folder of the data directory that holds the self-signed certificate and its key. */
export function tlsDir(dataDir: string): string {
  return join(dataDir, 'tls');
}

function readPem(what: string, file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (err) {
    throw new DeskFailure('bad-input', `The TLS ${what} ${file} cannot be read: ${(err as Error).message}.`);
  }
}

/** One spelling per host: names lowercased, addresses as URLs write them (::1, not 0:0:0:0:0:0:0:1). */
function canonical(host: string): string {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (isIP(h) === 6) return new URL(`http://[${h}]`).hostname.slice(1, -1);
  return h;
}

export function checkTlsHosts(hosts: readonly string[]): string[] {
  const out = [...new Set(hosts.map(canonical).filter((h) => h !== ''))];
  if (out.length === 0) throw new DeskFailure('bad-input', 'A self-signed certificate needs at least one host name or address (e.g. 127.0.0.1,localhost).');
  for (const h of out) {
    if (isIP(h) === 0 && !/^[a-z0-9*]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(h)) {
      throw new DeskFailure('bad-input', `"${h}" is not a host name or an IP address.`);
    }
  }
  return out;
}

/** The names and addresses a certificate covers (its subjectAltName), each spelled as canonical() does. */
function hostsOf(cert: X509Certificate): string[] {
  const san = cert.subjectAltName ?? '';
  return san
    .split(/,\s*/)
    .map((entry) => /^(?:DNS|IP Address):(.+)$/.exec(entry.trim())?.[1])
    .filter((h): h is string => h !== undefined)
    .map(canonical);
}

/** Checks a certificate and key as a TLS server would use them; returns what the status shows. */
function examine(cert: Buffer, key: Buffer, source: ProxyTlsStatus['source'], certFile: string): ProxyTlsStatus {
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
  } catch (err) {
    throw new DeskFailure('bad-input', `The TLS certificate ${certFile} is not a PEM certificate: ${(err as Error).message}.`);
  }
  let keyOk: boolean;
  try {
    keyOk = x509.checkPrivateKey(createPrivateKey(key));
  } catch (err) {
    throw new DeskFailure('bad-input', `The TLS key for ${certFile} is not a PEM private key: ${(err as Error).message}.`);
  }
  if (!keyOk) throw new DeskFailure('bad-input', `The TLS key is not the key of the certificate ${certFile}.`);
  const validTo = new Date(x509.validTo);
  if (validTo.getTime() <= Date.now()) throw new DeskFailure('bad-input', `The TLS certificate ${certFile} expired on ${validTo.toISOString()}.`);
  try {
    createSecureContext({ cert, key });
  } catch (err) {
    throw new DeskFailure('bad-input', `The TLS certificate ${certFile} cannot be served: ${(err as Error).message}.`);
  }
  return { source, certFile, fingerprint256: x509.fingerprint256, hosts: hostsOf(x509), validTo: validTo.toISOString() };
}

/** The certificate and key a TLS setting names, checked; a self-signed one is made (or reused) in the data directory. */
export async function loadTls(tls: ProxyTls, dataDir: string): Promise<TlsMaterial> {
  if ('selfSigned' in tls) return selfSigned(checkTlsHosts(tls.selfSigned), dataDir);
  const cert = readPem('certificate', tls.certFile);
  const key = readPem('key', tls.keyFile);
  return { cert, key, status: examine(cert, key, 'files', tls.certFile) };
}

/** The kept certificate when it covers exactly these hosts and has time left; else a new one, kept. */
async function selfSigned(hosts: string[], dataDir: string): Promise<TlsMaterial> {
  const dir = tlsDir(dataDir);
  const certFile = join(dir, SELF_SIGNED_CERT);
  const keyFile = join(dir, SELF_SIGNED_KEY);
  if (existsSync(certFile) && existsSync(keyFile)) {
    try {
      const cert = readFileSync(certFile);
      const key = readFileSync(keyFile);
      const status = examine(cert, key, 'self-signed', certFile);
      const same = status.hosts.length === hosts.length && hosts.every((h) => status.hosts.includes(h));
      if (same && new Date(status.validTo).getTime() - Date.now() > RENEW_BEFORE_MS) return { cert, key, status };
    } catch {
      // Unreadable, foreign or expired: made again below.
    }
  }
  // Loaded here, not at start: selfsigned and its X.509 libraries are a fifth of the CLI's start-up, and
  // only a proxy that makes its own certificate needs them.
  const { generate } = await import('selfsigned');
  const notBefore = new Date(Date.now() - 60_000);
  const made = await generate([{ name: 'commonName', value: hosts[0]! }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: notBefore,
    notAfterDate: new Date(notBefore.getTime() + SELF_SIGNED_DAYS * 24 * 60 * 60 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: hosts.map((h) => (isIP(h) !== 0 ? { type: 7 as const, ip: h } : { type: 2 as const, value: h })) },
    ],
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // The key is written readable by its owner only, and both files appear whole (a rename), never half-written.
  writeAtomically(keyFile, made.private, 0o600);
  writeAtomically(certFile, made.cert, 0o644);
  const cert = Buffer.from(made.cert);
  const key = Buffer.from(made.private);
  return { cert, key, status: examine(cert, key, 'self-signed', certFile) };
}

function writeAtomically(file: string, text: string, mode: number): void {
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, text, { mode });
  chmodSync(temp, mode);
  renameSync(temp, file);
}
