// An operator that answers 200 but says it ignored the callback did not accept it: send and replay
// say so instead of a plain 200.
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { notActedAnswer } from '../../../src-main/shared/not-acted';
import { runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { startRecorder } from '../../helpers/servers';
import { tempDir } from '../../helpers/temp';

const SECRET = 'not-acted-secret';

async function homeWith(operatorUrl: string): Promise<string> {
  const dir = tempDir();
  const desk = createDesk({ home: dir });
  try {
    expect((await desk.saveProfile({ name: 'ops', secret: SECRET, operatorUrl })).ok).toBe(true);
  } finally {
    await desk.close();
  }
  return dir;
}

describe('a 2XX that says the request was ignored', () => {
  it('is flagged by send, with the words of the body', async () => {
    const operator = closeAfterTest(
      await startRecorder((_req, _body, res) => {
        res.setHeader('content-type', 'application/json');
        res.end('{"ignored":"unknown deposit"}');
      }),
    );
    const dir = await homeWith(operator.url);
    const res = await runCli(['--home', dir, 'send', 'refund']);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^answer: 200 \(not acted on\) in /m);
    expect(res.stdout).toContain('warning: the operator answered 200, but its body says "{"ignored":"unknown deposit"}": it did not act on the request');
    expect(operator.received).toHaveLength(1);
  });

  it('a plain acceptance is not flagged, and echoed ids are not read as words', async () => {
    const operator = closeAfterTest(
      await startRecorder((_req, body, res) => {
        const { depositId } = JSON.parse(body.toString()) as { depositId: string };
        res.end(JSON.stringify({ status: 'ok', depositId, balance: 10 }));
      }),
    );
    const dir = await homeWith(operator.url);
    const res = await runCli(['--home', dir, 'send', 'pay', '--user-id', 'unknown-user']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^answer: 200 in /m);
    expect(res.stdout).not.toContain('warning:');
  });

  it('reads only a 2XX', () => {
    const body = Buffer.from('{"ignored":"unknown deposit"}').toString('base64');
    expect(notActedAnswer({ response: { status: 404, bodyBase64: body }, depositId: null, userId: null })).toBeNull();
    expect(notActedAnswer({ response: { status: 202, bodyBase64: body }, depositId: null, userId: null })).toContain('answered 202');
  });
});
