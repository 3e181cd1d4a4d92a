// The web mode's HTTP server: the built UI, DeskApi under /api/<method>, and the event stream under
// /api/events, on 127.0.0.1 only. Every request first passes the Host and Origin checks; everything
// under /api also needs the per-run token.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeskApi, DeskEventSource } from '../../shared/desk-api';
import { handleApiCall, isDeskMethod, sendJson, failure } from './api-routes';
import { allowedHosts, allowedOrigins, bearerMatches, hostAllowed, newAccessToken, originAllowed } from './auth';
import { eventStreams } from './sse';
import { COMMON_HEADERS, defaultRendererDir, serveStatic } from './static';
import { listenFailure } from '../../core/desk/shell-kit';

export interface WebUiOptions {
  /** 0 picks a free port. */
  port: number;
  /** Only a loopback name is accepted ('127.0.0.1' or 'localhost'); the server always binds 127.0.0.1. */
  host?: string;
  /** The built renderer; default: out/renderer of this project. */
  rendererDir?: string;
}

export interface WebUiStats {
  /** API calls that reached the desk. */
  apiCalls: number;
  /** Requests refused by a guard (Host, Origin, token, unknown method). */
  refused: number;
  /** Event streams open right now. */
  streams: number;
}

export interface WebUi {
  /** http://127.0.0.1:PORT/#token=...: the page moves the token into memory and drops it from the address bar. */
  url: string;
  port: number;
  stats(): WebUiStats;
  close(): Promise<void>;
}

const BIND_ADDRESS = '127.0.0.1';

export async function startWebUi(desk: DeskApi & DeskEventSource, options: WebUiOptions): Promise<WebUi> {
  if (options.host !== undefined && options.host !== '127.0.0.1' && options.host !== 'localhost') {
    throw new Error(`The web UI listens on 127.0.0.1 only; "${options.host}" is not allowed.`);
  }
  const rendererDir = options.rendererDir ?? defaultRendererDir();
  const token = newAccessToken();
  const tokenBytes = Buffer.from(token, 'utf8');
  const streams = eventStreams(desk);
  const stats = { apiCalls: 0, refused: 0 };
  // Filled in once the port is known (port 0 picks one).
  let hosts = new Set<string>();
  let origins = new Set<string>();

  const refuse = (res: ServerResponse, status: 401 | 403 | 404, message: string): void => {
    stats.refused += 1;
    if (status === 401) res.setHeader('www-authenticate', 'Bearer');
    sendJson(res, status, failure(status === 404 ? 'not-found' : 'forbidden', message));
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!hostAllowed(req, hosts)) return refuse(res, 403, 'This server answers only to 127.0.0.1 and localhost on its own port.');
    if (!originAllowed(req, origins)) return refuse(res, 403, 'Requests from other origins are refused.');
    let path: string;
    try {
      path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    } catch {
      return sendJson(res, 400, failure('bad-input', 'Bad request target.'));
    }

    if (path === '/api' || path.startsWith('/api/')) {
      if (!bearerMatches(req, tokenBytes)) return refuse(res, 401, 'A valid access token is required: open the ui: URL that wager-desk serve printed.');
      if (path === '/api/events') {
        if (req.method !== 'GET') return sendJson(res, 405, failure('bad-input', 'Use GET for /api/events.'));
        return streams.open(req, res);
      }
      const name = path.slice('/api/'.length);
      if (!isDeskMethod(name)) return refuse(res, 404, `No API method named "${name}".`);
      if (req.method !== 'POST') return sendJson(res, 405, failure('bad-input', `Use POST for /api/${name}.`));
      stats.apiCalls += 1;
      return handleApiCall(desk, name, req, res);
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, failure('bad-input', 'Only GET and HEAD are served here.'));
    if (serveStatic(rendererDir, path, res, req.method === 'HEAD')) return;
    res.writeHead(404, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
    res.end('Not found');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendJson(res, 500, failure('internal', err instanceof Error ? err.message : String(err)));
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    const failed = (err: NodeJS.ErrnoException): void => reject(listenFailure(err, 'the web UI', BIND_ADDRESS, options.port));
    server.once('error', failed);
    server.listen(options.port, BIND_ADDRESS, () => {
      server.off('error', failed);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hosts = allowedHosts(port);
  origins = allowedOrigins(port);

  let closing: Promise<void> | null = null;
  return {
    url: `http://${BIND_ADDRESS}:${port}/#token=${token}`,
    port,
    stats: () => ({ ...stats, streams: streams.count() }),
    close() {
      closing ??= new Promise<void>((resolve) => {
        streams.closeAll();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
