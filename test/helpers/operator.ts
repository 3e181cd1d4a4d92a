// A stand-in operator for tests: the other party of a callback. By default it follows the interface
// (verifies the HMAC over the raw bytes it received, keeps balances, is idempotent per depositId,
// answers 200 to a refund of an unknown deposit, refuses with the error body of section 2.6).
// Each defect switch breaks one thing, the way real operators get it wrong.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface OperatorDefects {
  /** Computes the HMAC over JSON.stringify(JSON.parse(body)) instead of the bytes received. */
  reserializesBeforeVerifying?: boolean;
  /** Accepts any well-formed signature: checks the format, never the value. */
  acceptsAnyWellFormedSignature?: boolean;
  /** Answers 500 to a REFUND of a depositId it never stored. */
  unknownRefund500?: boolean;
  /** Writes isClientSafe as the string "true" in error bodies. */
  stringIsClientSafe?: boolean;
  /** Refuses payments with an empty body. */
  noErrorBody?: boolean;
}

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
  /** Whether the signature matched the raw bytes under the shared secret, whatever the defects. */
  rawSignatureValid: boolean;
  status: number;
}

export interface StandInOperator {
  url: string;
  requests: ReceivedRequest[];
  balances: Map<string, number>;
  deposits: Map<string, { userId: string; amount: number; settled: string | null }>;
  close(): Promise<void>;
}

const hmac = (secret: string, bytes: Buffer | string): string => createHmac('sha256', secret).update(bytes).digest('hex');

function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === 32 && y.length === 32 && timingSafeEqual(x, y);
}

export async function startOperator(options: {
  secret: string;
  defects?: OperatorDefects;
  startingBalance?: number;
  /** Where it mounts the callbacks (default /platform, the spec's spelling). */
  callbackPrefix?: string;
}): Promise<StandInOperator> {
  const mounted = new RegExp(`${(options.callbackPrefix ?? '/platform').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(pay|results)$`);
  const defects = options.defects ?? {};
  // 1,000.00 in minor units: room for the 100-unit stakes of a whole conformance run.
  const starting = options.startingBalance ?? 100_000;
  const requests: ReceivedRequest[] = [];
  const balances = new Map<string, number>();
  const deposits = new Map<string, { userId: string; amount: number; settled: string | null }>();
  const balanceOf = (userId: string): number => balances.get(userId) ?? starting;

  function signatureOk(header: string | undefined, body: Buffer): boolean {
    if (typeof header !== 'string' || !/^[0-9a-f]{64}$/.test(header)) return false;
    if (defects.acceptsAnyWellFormedSignature) return true;
    if (defects.reserializesBeforeVerifying) {
      try {
        return sameHex(hmac(options.secret, JSON.stringify(JSON.parse(body.toString('utf8')))), header);
      } catch {
        return false;
      }
    }
    return sameHex(hmac(options.secret, body), header);
  }

  function refuse(res: ServerResponse, status: number, code: string, isClientSafe: boolean): number {
    if (defects.noErrorBody) {
      res.writeHead(status).end();
    } else {
      const body = { errors: [{ code, isClientSafe: defects.stringIsClientSafe ? String(isClientSafe) : isClientSafe }] };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }
    return status;
  }

  function ok(res: ServerResponse, body: unknown = { ok: true }): number {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    return 200;
  }

  function handle(req: IncomingMessage, res: ServerResponse, body: Buffer): number {
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !mounted.test(path)) return refuse(res, 404, 'NOT_FOUND', false);
    if (!signatureOk(req.headers['x-server-authorization'] as string | undefined, body)) return refuse(res, 401, 'INVALID_SIGNATURE', false);
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    } catch {
      return refuse(res, 400, 'BAD_REQUEST', false);
    }
    const userId = msg.userId;
    const depositId = msg.depositId;
    if (typeof userId !== 'string' || typeof depositId !== 'string') return refuse(res, 400, 'BAD_REQUEST', false);

    if (path.endsWith('/pay')) {
      const amount = msg.amount;
      if (typeof amount !== 'number' || !(amount > 0) || typeof msg.currency !== 'string') return refuse(res, 400, 'BAD_REQUEST', false);
      if (deposits.has(depositId)) return ok(res, { ok: true, duplicate: true });
      if (balanceOf(userId) < amount) return refuse(res, 402, 'INSUFFICIENT_BALANCE', true);
      balances.set(userId, balanceOf(userId) - amount);
      deposits.set(depositId, { userId, amount, settled: null });
      return ok(res);
    }

    const deposit = deposits.get(depositId);
    if (msg.result === 'REFUND' && !deposit) {
      return defects.unknownRefund500 ? refuse(res, 500, 'UNKNOWN_DEPOSIT', false) : ok(res, { ok: true, ignored: true });
    }
    if (!deposit) return ok(res, { ok: true, ignored: true });
    if (deposit.settled !== null) return ok(res, { ok: true, duplicate: true });
    deposit.settled = String(msg.result);
    if (msg.result === 'WIN' || msg.result === 'DRAW') balances.set(userId, balanceOf(userId) + Number(msg.amount));
    if (msg.result === 'REFUND') balances.set(userId, balanceOf(userId) + deposit.amount);
    return ok(res);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const header = req.headers['x-server-authorization'];
      const rawSignatureValid = typeof header === 'string' && /^[0-9a-f]{64}$/.test(header) && sameHex(hmac(options.secret, body), header);
      const status = handle(req, res, body);
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, rawSignatureValid, status });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    balances,
    deposits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
