// Small servers that play the other party in the outbound tests: a recorder that keeps the raw
// bytes of every request, and helpers to listen on port 0 and close.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export function closeServer(server: { close(cb: () => void): unknown; closeAllConnections?: () => void }): Promise<void> {
  server.closeAllConnections?.();
  return new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A server that records each request whole, then answers with `answer`. */
export async function startRecorder(answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void = (_q, res) => res.end('ok')) {
  const seen: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders: req.rawHeaders, body });
      answer(req, res, body);
    });
  });
  const url = await listen(server);
  return { url, seen, server, close: () => closeServer(server) };
}
