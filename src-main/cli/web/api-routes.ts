// DeskApi over HTTP: POST /api/<method> with a JSON array of arguments, answered with the method's
// Result as JSON, but for a text value (sendResult). Only the names in DESK_METHODS are routed; the
// desk's other members (close, on) and anything inherited from Object are not reachable.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { checkDeskArgs } from '../../shared/desk-args';
import { DESK_METHODS, type DeskApi, type DeskMethod } from '../../shared/desk-api';
import type { DeskError, Result } from '../../shared/model';
import { TEXT_VALUE_HEADER } from '../../shared/web-wire';
import { whileCallerWaits } from '../../core/desk/shell-kit';
import { bodyLimitOf, tooLargeMessage } from './body-limits';
import { COMMON_HEADERS } from './static';

export { MAX_API_BODY_BYTES, MAX_API_CALL_BYTES } from './body-limits';

const METHODS: ReadonlySet<string> = new Set(DESK_METHODS);

export function isDeskMethod(name: string): name is DeskMethod {
  return METHODS.has(name);
}

export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  res.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
  });
  res.end(body);
}

/**
 * A method's Result. A successful text value is the body itself, marked by TEXT_VALUE_HEADER: as a JSON
 * string, every quote of a HAR's JSON would be escaped on the proxy's thread, about 1 MB for an export of
 * 500 captures (BENCHMARKS.md export-cost: the proxy thread's time an export through this API, before and
 * after).
 * Failures, other values, and a text with a lone surrogate (which UTF-8 cannot carry, and JSON's escape
 * keeps exact) are the Result's JSON.
 */
export function sendResult(res: ServerResponse, result: Result<unknown>): void {
  if (!result.ok || typeof result.value !== 'string' || !wellFormed(result.value)) return sendJson(res, 200, result);
  const body = Buffer.from(result.value, 'utf8');
  res.writeHead(200, {
    ...COMMON_HEADERS,
    'content-type': 'text/plain; charset=utf-8',
    'content-length': String(body.length),
    'cache-control': 'no-store',
    [TEXT_VALUE_HEADER]: 'text',
  });
  res.end(body);
}

/** Whether the text is whole UTF-16 (no lone surrogate): String.prototype.isWellFormed, ES2024, in Node 20. */
const wellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

export function failure(code: DeskError['code'], message: string): Result<never> {
  return { ok: false, error: { code, message } };
}

/**
 * The body, or 'too-large' as soon as it passes `limit`: a declared Content-Length over it before a byte
 * is read, a body sent in chunks at the chunk that passes it. Reading stops there (the answer closes the
 * connection), so a body of gigabytes costs no more than the limit.
 */
function readBody(req: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.resolve('too-large');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      req.pause();
      resolve('too-large');
    };
    const onEnd = (): void => resolve(Buffer.concat(chunks));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', reject);
  });
}

/**
 * Runs one API call. The caller has already checked Host, Origin, the token and the method name.
 * A desk method never rejects (it returns a Result), but a thrown bug still becomes a typed error.
 */
export async function handleApiCall(desk: DeskApi, method: DeskMethod, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
    sendJson(res, 415, failure('bad-input', 'The request body must be JSON (content-type: application/json).'));
    return;
  }
  const raw = await readBody(req, bodyLimitOf(method));
  if (raw === 'too-large') {
    // The rest of the body is never read: the connection cannot carry another request after it.
    res.setHeader('connection', 'close');
    sendJson(res, 413, failure('bad-input', tooLargeMessage(method)));
    return;
  }
  let args: unknown;
  try {
    args = raw.length === 0 ? [] : JSON.parse(raw.toString('utf8'));
  } catch {
    sendJson(res, 400, failure('bad-input', 'The request body is not valid JSON.'));
    return;
  }
  if (!Array.isArray(args)) {
    sendJson(res, 400, failure('bad-input', 'The request body must be a JSON array of the method arguments.'));
    return;
  }
  const bad = checkDeskArgs(method, args);
  if (bad) {
    sendJson(res, 400, { ok: false, error: bad });
    return;
  }
  // A client that disconnects before its answer stops the reads its call started (a long search).
  const gone = new AbortController();
  const abandon = (): void => {
    if (!res.writableEnded) gone.abort();
  };
  res.once('close', abandon);
  let result: Result<unknown>;
  try {
    const fn = desk[method] as (...a: unknown[]) => Promise<Result<unknown>>;
    result = await whileCallerWaits(gone.signal, () => fn.apply(desk, args));
  } catch (err) {
    result = failure('internal', err instanceof Error ? err.message : String(err));
  } finally {
    res.off('close', abandon);
  }
  if (gone.signal.aborted) return;
  sendResult(res, result);
}
