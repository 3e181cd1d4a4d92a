// Stand-in operators that refuse correctly signed callbacks because they verify a re-serialization of
// the body: an Express-style one (express.json(), then HMAC over JSON.stringify(req.body)), a PHP-style
// one (HMAC over trim($body)), one in Python's standard library (json.dumps of the parsed body), and one
// that refuses everything. Each records what it received.
import { spawn } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { closeAfterTest } from '../../helpers/closing';
import { startRecorder, type Recorder } from '../../helpers/servers';

const hmac = (secret: string, text: string | Buffer): string => createHmac('sha256', secret).update(text).digest('hex');

function sameHex(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

const INVALID = { errors: [{ code: 'INVALID_SIGNATURE', isClientSafe: false }] };

type Answer = (req: IncomingMessage, raw: Buffer, res: ServerResponse) => void;

/** Verifies over what `signed` makes of the received body; 401 on a mismatch, 200 otherwise. */
export function verifyingAnswer(signed: (raw: Buffer) => string | Buffer, secret: string): Answer {
  return (req, raw, res) => {
    let text: string | Buffer;
    try {
      text = signed(raw);
    } catch {
      reply(res, 400, { errors: [{ code: 'BAD_JSON', isClientSafe: false }] });
      return;
    }
    const got = String(req.headers['x-server-authorization'] ?? '');
    if (!sameHex(hmac(secret, text), got)) reply(res, 401, INVALID);
    else reply(res, 200, { status: 'OK' });
  };
}

/** express.json() then JSON.stringify(req.body): the commonest way to verify the wrong bytes. */
export const expressAnswer = (secret: string): Answer => verifyingAnswer((raw) => JSON.stringify(JSON.parse(raw.toString('utf8'))), secret);

export const expressOperator = async (secret: string): Promise<Recorder> => closeAfterTest(await startRecorder(expressAnswer(secret)));

/** PHP's hash_hmac('sha256', trim(file_get_contents('php://input')), $secret). */
const phpTrimmed = (raw: Buffer): Buffer => Buffer.from(raw.toString('latin1').replace(/^[ \t\n\r\0\x0B]+|[ \t\n\r\0\x0B]+$/g, ''), 'latin1');

export const trimmingOperator = async (secret: string): Promise<Recorder> => closeAfterTest(await startRecorder(verifyingAnswer(phpTrimmed, secret)));

/** An operator that refuses every callback (a secret it does not share, say). */
export const refusingOperator = async (): Promise<Recorder> => closeAfterTest(await startRecorder((_req, _raw, res) => reply(res, 401, INVALID)));

/** The Python operator (json.dumps of the parsed body), on a port of its own choosing; killed after the test. */
export async function pythonOperator(secret: string): Promise<{ url: string }> {
  const script = fileURLToPath(new URL('../../fixtures/operators/python_operator.py', import.meta.url));
  const child = spawn('python3', [script, secret], { stdio: ['ignore', 'pipe', 'inherit'] });
  closeAfterTest({
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill();
      await once(child, 'exit');
    },
  });
  let out = '';
  for await (const chunk of child.stdout) {
    out += String(chunk);
    if (out.includes('\n')) break;
  }
  const port = Number(out.trim());
  if (!Number.isInteger(port) || port <= 0) throw new Error(`The Python operator did not start: ${JSON.stringify(out)}`);
  return { url: `http://127.0.0.1:${port}` };
}
