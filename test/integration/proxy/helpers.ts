// Shared pieces of the proxy and sandbox tests: the proxy on port 0, a plain HTTP client that returns
// exact bytes, and reads of what the proxy recorded. (Desks: test/helpers/desk.ts; raw sockets:
// test/helpers/raw-socket.ts; stand-in upstreams: test/helpers/servers.ts.)
import { createHash } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import type { Desk } from '../../../src-main/core/desk';
import type { ProxyConfig } from '../../../src-main/shared/model';
import { exchangesOf, newestExchangeOf } from '../../helpers/log-reads';

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export interface RunningProxy {
  desk: Desk;
  url: string;
  port: number;
}

/** The desk's proxy on 127.0.0.1, port 0; sandbox mode unless an upstream is given. */
export async function startProxy(desk: Desk, options: Partial<ProxyConfig> = {}): Promise<RunningProxy> {
  const started = await desk.startProxy({ port: 0, upstream: null, ...options });
  if (!started.ok) throw Object.assign(new Error(started.error.message), { code: started.error.code });
  return { desk, url: started.value.proxy.url!, port: started.value.proxy.port! };
}

export interface Reply {
  status: number;
  statusMessage: string;
  headers: Array<[string, string]>;
  body: Buffer;
}

export interface Send {
  method?: string;
  path?: string;
  headers?: Record<string, string> | string[];
  body?: Uint8Array | string;
  agent?: http.Agent | false;
}

/** One request on a fresh connection (unless an agent is given); resolves with the exact reply bytes. */
export function send(base: string, s: Send = {}): Promise<Reply> {
  const url = new URL(s.path ?? '/platform/pay', base);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: s.method ?? 'POST',
        headers: s.headers ?? {},
        agent: s.agent ?? false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const headers: Array<[string, string]> = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) headers.push([res.rawHeaders[i]!, res.rawHeaders[i + 1]!]);
          resolve({ status: res.statusCode!, statusMessage: res.statusMessage ?? '', headers, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(s.body === undefined ? undefined : typeof s.body === 'string' ? Buffer.from(s.body) : s.body);
  });
}

export const json = (reply: Reply): unknown => JSON.parse(reply.body.toString('utf8'));

/** A port nothing listens on: bound once, then released. */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The newest inbound rows, newest first. */
export function captures(desk: Desk, limit = 100) {
  return exchangesOf(desk, { direction: 'inbound', limit });
}

/** The newest inbound row, in full. */
export function latest(desk: Desk) {
  return newestExchangeOf(desk, { direction: 'inbound' });
}
