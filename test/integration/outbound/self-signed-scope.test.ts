// Allowing a self-signed certificate keeps the host name check, and applies only where it was allowed:
// the profile's own operator URL for sends, and, for tokens, only when the call itself allows it (never
// inherited from the profile, whose setting is for its operator).
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { httpSend } from '../../../src-main/core/outbound/http-send';
import { closeAfterTest } from '../../helpers/closing';
import { closeServer } from '../../helpers/servers';
import { tempDir } from '../../helpers/temp';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url));
const body = new TextEncoder().encode('{"userId":"u"}');

interface SelfSigned {
  /** The certificate names localhost and 127.0.0.1. */
  port: number;
  /** Requests that reached the server (a refused handshake never gets this far). */
  received: string[];
  server: Server;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) await closeServer(s);
});

async function selfSigned(host: string, answer = '{"status":"ok","token":"x.y.z"}'): Promise<SelfSigned> {
  const received: string[] = [];
  const server = createHttpsServer({ key: fixture('self-signed.key.pem'), cert: fixture('self-signed.cert.pem') }, (req, res) => {
    received.push(`${req.method} ${req.url} ${String(req.headers['x-api-key'] ?? '')}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { port: (server.address() as AddressInfo).port, received, server };
}

describe('a self-signed certificate, allowed', () => {
  it('is accepted for the host name it names, by name or by address', async () => {
    const s = await selfSigned('127.0.0.1');
    for (const host of ['localhost', '127.0.0.1']) {
      const r = await httpSend({ url: `https://${host}:${s.port}/x`, method: 'POST', headers: [], body, timeoutMs: 5000, allowSelfSigned: true });
      expect(r.ok, r.ok ? '' : r.error).toBe(true);
    }
    expect(s.received).toHaveLength(2);
  });

  it('is refused for another host name, before a byte of the request is sent', async () => {
    // 127.0.0.2 reaches the same machine; the certificate names only localhost and 127.0.0.1.
    const s = await selfSigned('127.0.0.2');
    const r = await httpSend({
      url: `https://127.0.0.2:${s.port}/x`,
      method: 'POST',
      headers: [['x-api-key', 'k']],
      body,
      timeoutMs: 5000,
      allowSelfSigned: true,
    });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.errorCode).toBe('tls');
      expect(r.error).toMatch(/another host name|ERR_TLS_CERT_ALTNAME_INVALID/);
    }
    expect(s.received).toEqual([]);
  });
});

describe("a profile's permission applies to its operator URL only", () => {
  it('a send to the operator URL passes; a typed target elsewhere needs a trusted certificate', async () => {
    const own = await selfSigned('127.0.0.1');
    const elsewhere = await selfSigned('127.0.0.1');
    const desk = closeAfterTest(createDesk({ home: tempDir(), outboundTimeoutMs: 5000 }));
    expect((await desk.saveProfile({ name: 'p', secret: 'self-signed-secret', operatorUrl: `https://127.0.0.1:${own.port}`, allowSelfSigned: true })).ok).toBe(
      true,
    );
    const draft = await desk.draftTemplate('pay', 'u-1');
    if (!draft.ok) throw new Error(draft.error.message);

    const toOwn = await desk.send({ draft: draft.value });
    expect(toOwn.ok && toOwn.value.response?.status).toBe(200);
    const toElsewhere = await desk.send({ draft: draft.value, to: `https://localhost:${elsewhere.port}` });
    expect(toElsewhere.ok && toElsewhere.value.error).toMatch(/self-signed/);
    expect(elsewhere.received).toEqual([]);
  });

  it('the token URL never inherits it: the call must allow it', async () => {
    const service = await selfSigned('127.0.0.1');
    const desk = closeAfterTest(createDesk({ home: tempDir(), outboundTimeoutMs: 5000 }));
    const base = `https://127.0.0.1:${service.port}`;
    expect(
      (await desk.saveProfile({ name: 'p', operatorUrl: base, baseUrl: base, operatorId: 'op', apiKey: 'ak_self_signed_1234', allowSelfSigned: true })).ok,
    ).toBe(true);

    const inherited = await desk.requestToken({ userId: 'u', displayName: 'U' });
    expect(inherited.ok && inherited.value.error).toMatch(/self-signed/);
    expect(service.received).toEqual([]);

    const allowed = await desk.requestToken({ userId: 'u', displayName: 'U', allowSelfSigned: true });
    expect(allowed.ok && allowed.value.status).toBe(200);
    expect(service.received).toHaveLength(1);
  });
});
