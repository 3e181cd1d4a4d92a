// The desk's events as a server-sent event stream (GET /api/events). The page reads it with fetch and
// a stream reader rather than EventSource, so the token travels in the Authorization header like every
// other call and never appears in a URL.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DeskEventSource } from '../../shared/desk-api';
import { COMMON_HEADERS } from './static';

/** A comment line now and then keeps proxies and idle timers from closing a quiet stream. */
const HEARTBEAT_MS = 15_000;

export interface EventStreams {
  open(req: IncomingMessage, res: ServerResponse): void;
  /** Ends every open stream (server shutdown). */
  closeAll(): void;
  count(): number;
}

export function eventStreams(source: DeskEventSource): EventStreams {
  const open = new Set<() => void>();
  return {
    open(req, res) {
      res.writeHead(200, {
        ...COMMON_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      // The first bytes tell the client the stream is live (it waits for them before reporting "connected").
      res.write(': connected\n\n');
      const unsubscribe = source.on((name, payload) => {
        res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
      });
      const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
      heartbeat.unref();
      const close = (): void => {
        if (!open.delete(close)) return;
        clearInterval(heartbeat);
        unsubscribe();
        res.end();
      };
      open.add(close);
      req.on('close', close);
      res.on('error', close);
    },
    closeAll() {
      for (const close of [...open]) close();
    },
    count: () => open.size,
  };
}
