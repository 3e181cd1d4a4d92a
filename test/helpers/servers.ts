// Stand-in HTTP servers for the OTHER party of a test (an operator, an upstream, a redirect target):
// listening on 127.0.0.1 port 0, and a recorder that keeps every request whole (exact body bytes,
// raw header order) so a test can assert on what really arrived.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Listens on 127.0.0.1, port 0; resolves with the base URL. */
export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Closes a server with its keep-alive connections, which would otherwise hold close() open. */
export function closeServer(server: { close(cb: () => void): unknown; closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

export interface Recorded {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

export interface Recorder {
  url: string;
  port: number;
  /** Every request received, in arrival order, recorded before `answer` runs. */
  received: Recorded[];
  close(): Promise<void>;
}

/** A server that records each request whole, then lets `answer` respond (by default: 200 "ok"). */
export async function startRecorder(
  answer: (req: IncomingMessage, body: Buffer, res: ServerResponse) => void = (_req, _body, res) => res.end('ok'),
): Promise<Recorder> {
  const received: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, rawHeaders: req.rawHeaders, body });
      answer(req, body, res);
    });
  });
  const url = await listen(server);
  return { url, port: Number(new URL(url).port), received, close: () => closeServer(server) };
}
