// Shared pieces of the proxy and sandbox tests: a real desk in a temp dir, the proxy on port 0, a plain
// HTTP client that returns exact bytes, raw sockets for malformed requests, and a stand-in upstream.
import { createHash } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net from 'node:net';
import { onTestFinished } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { proxyOf } from '../../../src-main/core/desk/proxy-part';
import type { ProxyStartOptions } from '../../../src-main/core/proxy';
import { tempDir } from '../../helpers/temp';

export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

export function openDesk(home = tempDir()): Desk {
  const desk = createDesk({ home });
  onTestFinished(() => desk.close());
  return desk;
}

export interface RunningProxy {
  desk: Desk;
  url: string;
  port: number;
}

/** The desk's proxy on 127.0.0.1, port 0; sandbox mode unless an upstream is given. */
export async function startProxy(desk: Desk, options: ProxyStartOptions = {}): Promise<RunningProxy> {
  const status = await proxyOf(desk.ctx).start({ port: 0, upstream: null, ...options });
  return { desk, url: status.url!, port: status.port! };
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
      { hostname: url.hostname, port: url.port, path: url.pathname + url.search, method: s.method ?? 'POST', headers: s.headers ?? {}, agent: s.agent ?? false },
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

/** Writes raw bytes on a new socket and collects everything until the server closes it. */
export function rawExchange(port: number, bytes: Uint8Array | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? resolve(Buffer.concat(chunks).toString('latin1')) : reject(err)));
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('connect', () => socket.write(bytes));
  });
}

export interface StandIn {
  url: string;
  port: number;
  /** Every request the stand-in received, with its exact body. */
  received: Array<{ method: string; url: string; rawHeaders: string[]; body: Buffer }>;
  close(): Promise<void>;
}

/** A stand-in operator: records each request whole, then lets `answer` respond. */
export async function standInUpstream(answer: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void): Promise<StandIn> {
  const received: StandIn['received'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method!, url: req.url!, rawHeaders: req.rawHeaders, body });
      answer(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const close = async (): Promise<void> => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  onTestFinished(close);
  return { url: `http://127.0.0.1:${port}`, port, received, close };
}

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
  return desk.ctx.store.exchanges.list({ direction: 'inbound', limit }).items;
}

export function latest(desk: Desk) {
  const [top] = captures(desk, 1);
  if (!top) throw new Error('no capture');
  return desk.ctx.store.exchanges.get(top.id)!;
}
