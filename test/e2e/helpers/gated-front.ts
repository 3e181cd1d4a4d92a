// A pass-through in front of a stand-in operator that can hold requests back: lets a test look at a
// run while it is under way (the conformance check's progress) without depending on timing. The
// first `passFirst` requests go straight through; later ones wait until release().
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GatedFront {
  url: string;
  /** Lets every held and future request through. */
  release(): void;
  close(): Promise<void>;
}

export async function startGatedFront(targetUrl: string, passFirst: number): Promise<GatedFront> {
  let passed = 0;
  let open = false;
  const waiting: Array<() => void> = [];

  async function forward(req: IncomingMessage, res: ServerResponse, body: Buffer): Promise<void> {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
    const answer = await fetch(`${targetUrl}${req.url ?? '/'}`, { method: req.method ?? 'POST', headers, ...(body.length > 0 ? { body } : {}) });
    const bytes = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/octet-stream' }).end(bytes);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const go = (): void => void forward(req, res, Buffer.concat(chunks)).catch(() => res.writeHead(502).end());
      if (open || passed < passFirst) {
        passed++;
        go();
      } else waiting.push(go);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    release() {
      open = true;
      for (const go of waiting.splice(0)) go();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
