// A stand-in operator written the way operators write them from the published implementation guide,
// independently of the desk: an HTTP server with its callbacks mounted under its own prefix (/acme),
// a "database" with amount INTEGER (minor units) and deposit_id/room_id VARCHAR(36), the HMAC compared
// as hex strings (as the spec describes: recompute, compare), JSON.parse on the raw body, idempotent
// pays by depositId, a REFUND of an unknown deposit ignored with 200. Each defect switch breaks one
// thing; a separate helper serves a URL that answers 404 to everything.
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface IntegerOperatorDefects {
  /** Verifies nothing once a signature header is present. */
  acceptsAnySignature?: boolean;
  /** Lets a request without a signature header through. */
  acceptsMissingSignature?: boolean;
  /** Computes the HMAC over JSON.stringify(JSON.parse(body)) instead of the bytes received. */
  reserializesBeforeVerifying?: boolean;
  /** Throws (500) on a REFUND of a deposit it never stored. */
  unknownRefund500?: boolean;
  /** Refuses a repeated pay with 409 instead of answering it again. */
  duplicatePay409?: boolean;
  /** Refuses repeated results with 409. */
  duplicateResults409?: boolean;
  /** Looks the deposit up in the wrong table for WIN: answers 200 "Deposit ignored". */
  winIgnored?: boolean;
  /** Requires amount on LOSE (400 without it). */
  loseNeedsAmount?: boolean;
  /** room_id NOT NULL: a REFUND with a null roomId throws (500). */
  refundNeedsRoom?: boolean;
  /** Refuses a pay with a tournamentId (400). */
  rejectsTournament?: boolean;
  /** Writes isClientSafe as the string "true". */
  stringIsClientSafe?: boolean;
  /** Accepts an amount of 0 or less. */
  acceptsNonPositive?: boolean;
  /** Every pay throws (500): a broken deployment. */
  allPays500?: boolean;
}

export interface IntegerOperator {
  url: string;
  /** Where the callbacks are mounted, e.g. /acme. */
  prefix: string;
  requests: Array<{ method: string; path: string; body: string; status: number }>;
  balances: Map<string, number>;
  deposits: Map<string, { userId: string; amount: number; outcome: string | null }>;
  close(): Promise<void>;
}

const VARCHAR = 36;

class DbError extends Error {}

function send(res: ServerResponse, status: number, body: unknown): number {
  res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body));
  return status;
}

const errorBody = (code: string, isClientSafe: boolean | string) => ({ errors: [{ code, isClientSafe }] });

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const closer = (server: Server) => () => new Promise<void>((resolve) => server.close(() => resolve()));

export async function startIntegerOperator(options: {
  secret: string;
  prefix?: string;
  users: Record<string, number>;
  defects?: IntegerOperatorDefects;
  /** How a non-integer amount is refused: 400, or 500 as the database throws. */
  nonIntegerStatus?: 400 | 500;
}): Promise<IntegerOperator> {
  const prefix = options.prefix ?? '/acme';
  const defects = options.defects ?? {};
  const balances = new Map(Object.entries(options.users));
  const deposits = new Map<string, { userId: string; amount: number; outcome: string | null }>();
  const requests: IntegerOperator['requests'] = [];

  /** What the database does with the columns: VARCHAR(36) ids, INTEGER amounts. */
  function column(name: string, value: unknown, type: 'varchar' | 'integer'): void {
    if (type === 'varchar' && typeof value === 'string' && value.length > VARCHAR) throw new DbError(`value too long for type character varying(36): ${name}`);
    if (type === 'integer' && typeof value === 'number' && !Number.isInteger(value)) throw new DbError(`invalid input syntax for type integer: "${value}"`);
  }

  function verified(req: IncomingMessage, raw: Buffer): boolean {
    const header = req.headers['x-server-authorization'];
    if (typeof header !== 'string') return defects.acceptsMissingSignature === true;
    if (defects.acceptsAnySignature) return true;
    let signed: Buffer | string = raw;
    if (defects.reserializesBeforeVerifying) {
      try {
        signed = JSON.stringify(JSON.parse(raw.toString('utf8')));
      } catch {
        return false;
      }
    }
    return createHmac('sha256', options.secret).update(signed).digest('hex') === header;
  }

  function pay(res: ServerResponse, msg: Record<string, unknown>): number {
    if (defects.allPays500) throw new DbError('connection to the ledger database refused');
    const { userId, depositId, amount, currency } = msg;
    if (typeof userId !== 'string' || typeof depositId !== 'string' || typeof currency !== 'string' || typeof amount !== 'number') {
      return send(res, 400, errorBody('INVALID_REQUEST', false));
    }
    if (defects.rejectsTournament && msg.tournamentId !== undefined) return send(res, 400, errorBody('INVALID_REQUEST', false));
    if (!Number.isInteger(amount)) {
      if (options.nonIntegerStatus === 500) column('amount', amount, 'integer');
      return send(res, 400, errorBody('INVALID_AMOUNT', false));
    }
    if (amount <= 0 && !defects.acceptsNonPositive) return send(res, 400, errorBody('INVALID_AMOUNT', false));
    column('deposit_id', depositId, 'varchar');
    const existing = deposits.get(depositId);
    if (existing) return defects.duplicatePay409 ? send(res, 409, errorBody('DUPLICATE_DEPOSIT', false)) : send(res, 200, { status: 'ok', depositId });
    const balance = balances.get(userId);
    if (balance === undefined) return send(res, 400, errorBody('UNKNOWN_USER', true));
    if (balance < amount) return send(res, 400, errorBody('INSUFFICIENT_BALANCE', defects.stringIsClientSafe ? 'true' : true));
    balances.set(userId, balance - amount);
    deposits.set(depositId, { userId, amount, outcome: null });
    return send(res, 200, { status: 'ok', depositId, balance: balance - amount });
  }

  function results(res: ServerResponse, msg: Record<string, unknown>): number {
    const { result, userId, depositId, roomId, amount } = msg;
    if (typeof depositId !== 'string' || typeof userId !== 'string' || typeof result !== 'string') return send(res, 400, errorBody('INVALID_REQUEST', false));
    const deposit = deposits.get(depositId);
    if (!deposit) {
      if (result === 'REFUND' && defects.unknownRefund500) throw new DbError(`deposit ${depositId} not found`);
      return send(res, 200, 'Deposit ignored');
    }
    if (deposit.outcome !== null)
      return defects.duplicateResults409 ? send(res, 409, errorBody('ALREADY_SETTLED', false)) : send(res, 200, { status: 'ok', depositId });
    column('room_id', roomId, 'varchar');
    if (result === 'REFUND' && roomId === null && defects.refundNeedsRoom) throw new DbError('null value in column "room_id" violates not-null constraint');
    if (result === 'LOSE' && defects.loseNeedsAmount && typeof amount !== 'number') return send(res, 400, errorBody('INVALID_REQUEST', false));
    if (result === 'WIN' && defects.winIgnored) return send(res, 200, 'Deposit ignored');
    if ((result === 'WIN' || result === 'DRAW') && typeof amount === 'number') {
      column('amount', amount, 'integer');
      balances.set(deposit.userId, (balances.get(deposit.userId) ?? 0) + amount);
    }
    if (result === 'REFUND') balances.set(deposit.userId, (balances.get(deposit.userId) ?? 0) + deposit.amount);
    deposit.outcome = result;
    return send(res, 200, { status: 'ok', depositId });
  }

  function route(req: IncomingMessage, res: ServerResponse, raw: Buffer): number {
    const path = (req.url ?? '').split('?')[0];
    const handler = req.method === 'POST' && path === `${prefix}/pay` ? pay : req.method === 'POST' && path === `${prefix}/results` ? results : null;
    if (!handler) return send(res, 404, `Cannot ${req.method} ${path}`);
    if (!verified(req, raw)) return send(res, 401, errorBody('INVALID_SIGNATURE', false));
    let msg: unknown;
    try {
      msg = JSON.parse(raw.toString('utf8'));
    } catch {
      return send(res, 400, errorBody('INVALID_JSON', false));
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) return send(res, 400, errorBody('INVALID_REQUEST', false));
    try {
      return handler(res, msg as Record<string, unknown>);
    } catch (err) {
      if (!(err instanceof DbError)) throw err;
      return send(res, 500, 'Internal Server Error');
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const status = route(req, res, raw);
      requests.push({ method: req.method ?? '', path: req.url ?? '', body: raw.toString('utf8'), status });
    });
  });
  return { url: await listen(server), prefix, requests, balances, deposits, close: closer(server) };
}

/** A URL that answers 404 to everything, as a wrong base URL or a wrong prefix does. */
export async function startNotFoundServer(): Promise<{ url: string; hits: number; close(): Promise<void> }> {
  const state = { hits: 0 };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      state.hits++;
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body><h1>404 Not Found</h1></body></html>');
    });
  });
  const url = await listen(server);
  return {
    url,
    get hits() {
      return state.hits;
    },
    close: closer(server),
  };
}
