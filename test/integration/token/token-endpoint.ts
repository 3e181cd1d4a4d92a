// A stand-in for the platform's create-token endpoint (the other party of a token request): it checks
// the headers and body the way the service would, and answers per its current mode.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const PLATFORM_KEY = 'platform-jwt-key-the-desk-never-sees';
export const OPERATOR_ID = 'op-4711';

export type Mode = 'ok' | 'server-error' | 'not-json' | 'no-token' | 'bad-token' | 'redirect' | 'hang' | 'echo-key' | 'many-fields';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

const b64url = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

/** An HS256 JWT built by hand: header.payload.signature, each base64url. */
export function makeJwt(claims: Record<string, unknown>, key = PLATFORM_KEY): string {
  const signingInput = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url(claims)}`;
  return `${signingInput}.${createHmac('sha256', key).update(signingInput).digest('base64url')}`;
}

export interface TokenEndpoint {
  url: string;
  mode: Mode;
  /** Where a redirect points. */
  redirectTo: string;
  seen: SeenRequest[];
  close(): Promise<void>;
}

export async function startTokenEndpoint(apiKey: string): Promise<TokenEndpoint> {
  const state: TokenEndpoint = { url: '', mode: 'ok', redirectTo: 'http://127.0.0.1:9/elsewhere', seen: [], close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      state.seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      if (state.mode === 'hang') return; // never answers
      if (req.method !== 'POST' || req.url !== '/v0/wager/operator/create-token') return json(404, { error: `no route ${req.method} ${req.url}` });
      if (req.headers['x-operator-id'] !== OPERATOR_ID) return json(401, { error: 'unknown operator' });
      if (state.mode === 'echo-key') {
        // A careless service that repeats what it received, key included, in its body and a header.
        return res.writeHead(403, { 'x-received-key': String(req.headers['x-api-key']) }).end(`forbidden key ${String(req.headers['x-api-key'])}`);
      }
      if (req.headers['x-api-key'] !== apiKey) return json(401, { error: 'bad api key' });
      if (!String(req.headers['content-type']).startsWith('application/json')) return json(415, { error: 'json only' });
      let parsed: { userId?: unknown; displayName?: unknown };
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        return json(400, { error: 'body is not JSON' });
      }
      if (typeof parsed.userId !== 'string' || typeof parsed.displayName !== 'string' || Object.keys(parsed).length !== 2) {
        return json(400, { error: 'body must be {userId, displayName}' });
      }
      const now = Math.floor(Date.now() / 1000);
      switch (state.mode) {
        case 'server-error':
          return res.writeHead(503, { 'content-type': 'text/plain' }).end('maintenance window, retry later');
        case 'not-json':
          return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>login</html>');
        case 'no-token':
          return json(200, { status: 200, data: { jwt: 'elsewhere' } });
        case 'bad-token':
          return json(200, { status: 200, data: { token: 'abc.%%%.def' } });
        case 'redirect':
          return res.writeHead(307, { location: state.redirectTo }).end();
        case 'many-fields':
          // A hostile or broken service: a token among hundreds of fields, each a finding of the inspection.
          return json(200, { status: 200, data: { token: 'a.b.c' }, ...Object.fromEntries(Array.from({ length: 900 }, (_, i) => [`extra${i}`, i])) });
        default:
          return json(200, {
            status: 200,
            data: { token: makeJwt({ sub: parsed.userId, name: parsed.displayName, operatorId: OPERATOR_ID, iat: now, nbf: now, exp: now + 3600 }) },
          });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
