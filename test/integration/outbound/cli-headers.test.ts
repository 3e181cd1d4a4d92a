// `--header` and `--drop-header` on replay and send, through the real CLI to a stand-in operator that
// verifies the signature over the bytes it received.
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { runCli } from '../../helpers/cli';
import { closeAfterTest } from '../../helpers/closing';
import { startOperator } from '../../helpers/operator';
import { tempDir } from '../../helpers/temp';

const SECRET = 'cli-header-secret';

async function homeWithOperator() {
  const operator = closeAfterTest(await startOperator({ secret: SECRET }));
  const home = tempDir();
  const desk = createDesk({ home });
  await desk.saveProfile({ name: 'p', secret: SECRET, operatorUrl: operator.url });
  await desk.close();
  return { home, operator };
}

describe('headers on replay and send', () => {
  it('a replay with --header arrives with that header and a valid signature; --drop-header removes one', async () => {
    const { home, operator } = await homeWithOperator();
    const sent = await runCli(['--home', home, 'send', 'pay', '--header', 'X-Trace: first one', '--json']);
    expect(sent.code, sent.stderr).toBe(0);
    const id = (JSON.parse(sent.stdout) as { id: number }).id;
    expect(operator.requests[0]!.headers['x-trace']).toBe('first one');
    expect(operator.requests[0]!.rawSignatureValid).toBe(true);

    const replayed = await runCli([
      '--home',
      home,
      'replay',
      String(id),
      '--header',
      'x-trace: second',
      '--header',
      'X-Extra: 1',
      '--drop-header',
      'User-Agent',
      '--json',
    ]);
    expect(replayed.code, replayed.stderr).toBe(0);
    const got = operator.requests[1]!;
    expect(got.headers['x-trace']).toBe('second');
    expect(got.headers['x-extra']).toBe('1');
    expect(got.headers['user-agent']).toBeUndefined();
    expect(got.rawSignatureValid).toBe(true);
    const detail = JSON.parse(replayed.stdout) as { signature: { verdict: string }; request: { headers: Array<[string, string]> } };
    expect(detail.signature.verdict).toBe('valid');
    expect(detail.request.headers.filter(([n]) => n.toLowerCase() === 'x-trace')).toEqual([['X-Trace', 'second']]);
  });

  it('a signature header set by hand is sent as given, whatever the mode, with a note', async () => {
    const { home, operator } = await homeWithOperator();
    const res = await runCli(['--home', home, 'send', 'pay', '--header', `x-server-authorization: ${'ab'.repeat(32)}`, '--json']);
    expect(res.code, res.stderr).toBe(0);
    expect(operator.requests[0]!.headers['x-server-authorization']).toBe('ab'.repeat(32));
    expect(operator.requests[0]!.rawSignatureValid).toBe(false);
    const detail = JSON.parse(res.stdout) as { signature: { verdict: string; notes: string[] } };
    expect(detail.signature.verdict).toBe('mismatch');
    expect(detail.signature.notes[0]).toMatch(/set by hand and sent as given/);
  });

  it('refuses a malformed --header and a framing header with exit 2, sending nothing', async () => {
    const { home, operator } = await homeWithOperator();
    expect((await runCli(['--home', home, 'send', 'pay', '--header', 'no colon'])).code).toBe(2);
    const framing = await runCli(['--home', home, 'send', 'pay', '--header', 'Content-Length: 3']);
    expect(framing.code).toBe(2);
    expect(framing.stderr).toContain('set by the desk');
    expect(operator.requests).toHaveLength(0);
  });
});
