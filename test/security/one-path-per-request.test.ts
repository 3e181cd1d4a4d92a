// One path per request: with several profiles on one proxy, the path that chooses the profile is the
// path that is judged and the path its upstream receives. Dot segments (raw or percent-encoded) and
// empty segments are resolved once at the door; an encoded slash, a backslash or a "..;" segment, which
// servers read in different ways, is refused 400 with its row. Each shape of prefixes is tried: two
// siblings, one nested in the other, one inside the other's name.
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { closeAfterTest } from '../helpers/closing';
import { openDesk } from '../helpers/desk';
import { must } from '../helpers/must';
import { rawRoundTrip } from '../helpers/raw-socket';
import { startRecorder, type Recorder } from '../helpers/servers';
import { latest } from '../integration/proxy/helpers';

const BODY = JSON.stringify({ depositId: 'd-1', userId: 'u-1', amount: 100, currency: 'EUR', gameId: 'blocks' });

interface Operator {
  name: string;
  prefix: string;
  secret: string;
  upstream: Recorder;
}

/**
 * Two profiles on one proxy, each forwarding to a stand-in upstream of its own. Saved profiles may not
 * nest (prefix-overlap.ts), but a start's own prefix applies to the active profile unchecked against
 * the others: `nested` serves the second profile under it, as profiles saved before that rule were.
 */
async function twoOperators(a: string, b: string, nested = false): Promise<{ desk: Desk; port: number; ops: [Operator, Operator] }> {
  const desk = openDesk();
  const ops: Operator[] = [];
  for (const [i, prefix] of [a, b].entries()) {
    const upstream = closeAfterTest(await startRecorder());
    const op = { name: `op${i}`, prefix, secret: `secret-of-op${i}-${prefix.replace(/\W/g, '')}`, upstream };
    const saved = nested && i === 1 ? '/saved-elsewhere' : prefix;
    must(await desk.saveProfile({ name: op.name, callbackPrefix: saved, secret: op.secret, upstream: upstream.url }));
    ops.push(op);
  }
  if (nested) must(await desk.useProfile('op1'));
  const started = must(await desk.startProxy({ port: 0, ...(nested ? { callbackPrefix: b } : {}) }));
  expect(started.proxy.profileCallbackUrls?.map((u) => u.pay).sort()).toEqual([`${started.proxy.url}${a}/pay`, `${started.proxy.url}${b}/pay`].sort());
  return { desk, port: started.proxy.port!, ops: ops as [Operator, Operator] };
}

/** A pay callback to the raw target, signed with the given secret. */
async function post(port: number, target: string, secret: string) {
  const signature = sign(Buffer.from(BODY), secret);
  return rawRoundTrip(
    port,
    `POST ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nX-Server-Authorization: ${signature}\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`,
  );
}

/**
 * Sends `target` signed with `to`'s secret and asserts that `to` alone had it: its upstream received
 * `forwarded`, the row is its profile's, and `to`'s secret judged it valid (the other's would not).
 */
async function reaches(setup: Awaited<ReturnType<typeof twoOperators>>, target: string, to: 0 | 1, forwarded: string): Promise<void> {
  const { desk, port, ops } = setup;
  const before = ops.map((o) => o.upstream.received.length);
  const answer = await post(port, target, ops[to].secret);
  expect(answer.statuses, target).toEqual([200]);
  expect(ops[to].upstream.received.length, target).toBe(before[to]! + 1);
  expect(ops[to].upstream.received.at(-1)!.url, target).toBe(forwarded);
  expect(ops[1 - to]!.upstream.received.length, target).toBe(before[1 - to]);
  const row = await latest(desk);
  expect([row.profile, row.kind, row.signature?.verdict], target).toEqual([ops[to].name, 'pay', 'valid']);
  // The row keeps the target as it arrived, as evidence.
  expect(row.path, target).toBe(target.split('?')[0]);
}

/** Sends `target` and asserts it is refused 400, recorded with a finding, and reaches no upstream. */
async function refused(setup: Awaited<ReturnType<typeof twoOperators>>, target: string, why: RegExp): Promise<void> {
  const { desk, port, ops } = setup;
  const before = ops.map((o) => o.upstream.received.length);
  const answer = await post(port, target, ops[0].secret);
  expect(answer.statuses, target).toEqual([400]);
  expect(
    ops.map((o) => o.upstream.received.length),
    target,
  ).toEqual(before);
  const row = await latest(desk);
  expect(row.path, target).toBe(target);
  expect(row.response?.status, target).toBe(400);
  expect(row.signature?.verdict ?? null, target).toBeNull();
  expect(row.findings.map((f) => `${f.level} ${f.message}`).join('\n'), target).toMatch(why);
}

describe('one path per request: sibling prefixes /acme and /other', () => {
  it('a dot segment does not carry a request from one profile into the other', async () => {
    const setup = await twoOperators('/acme', '/other');
    await reaches(setup, '/acme/pay', 0, '/acme/pay');
    await reaches(setup, '/acme/../other/pay', 1, '/other/pay');
    await reaches(setup, '/acme/%2e%2e/other/pay', 1, '/other/pay');
    await reaches(setup, '/acme/%2E%2e/other/pay', 1, '/other/pay');
    await reaches(setup, '/acme/.%2E/other/pay?x=/../acme', 1, '/other/pay?x=/../acme');
    await reaches(setup, '/other/pay/../../acme/pay', 0, '/acme/pay');
    await reaches(setup, '//other//./pay', 1, '/other/pay');
    const row = await latest(setup.desk);
    expect(row.findings.map((f) => f.message).join('\n')).toMatch(/read as "\/other\/pay", which chose the profile/);
  });

  it('a signature by the profile the raw path names is judged with the secret of the profile the path reaches', async () => {
    const setup = await twoOperators('/acme', '/other');
    await post(setup.port, '/acme/../other/pay', setup.ops[0].secret);
    const row = await latest(setup.desk);
    expect([row.profile, row.signature?.verdict]).toEqual(['op1', 'mismatch']);
    expect(setup.ops[0].upstream.received).toHaveLength(0);
  });

  it('encoded slashes, backslashes and "..;" are refused 400 with their row and a finding', async () => {
    const setup = await twoOperators('/acme', '/other');
    await refused(setup, '/acme%2F..%2Fother/pay', /error .*encoded slash \(%2F\).*refused 400/);
    await refused(setup, '/acme/..%2fother/pay', /encoded slash/);
    await refused(setup, '/acme/%2e%2e%2Fother/pay', /encoded slash/);
    await refused(setup, '/acme\\..\\other\\pay', /backslash/);
    await refused(setup, '/acme/..%5cother/pay', /backslash/);
    await refused(setup, '/acme/..;/other/pay', /dot segment with parameters/);
    await refused(setup, '/acme/%2e%2e;x/other/pay', /dot segment with parameters/);
  });
});

describe('one path per request: nested prefixes /a and /a/b', () => {
  it('the longest prefix of the resolved path wins, in both directions', async () => {
    const setup = await twoOperators('/a', '/a/b', true);
    await reaches(setup, '/a/pay', 0, '/a/pay');
    await reaches(setup, '/a/b/pay', 1, '/a/b/pay');
    await reaches(setup, '/a/b/../pay', 0, '/a/pay');
    await reaches(setup, '/a/b/%2e%2e/pay', 0, '/a/pay');
    await reaches(setup, '/a/x/../b/pay', 1, '/a/b/pay');
    await reaches(setup, '/a/./b/pay', 1, '/a/b/pay');
    await reaches(setup, '/a//b/pay', 1, '/a/b/pay');
    await refused(setup, '/a%2Fb/pay', /encoded slash/);
  });
});

describe('one path per request: one prefix inside the other’s name, /acme and /acme2', () => {
  it('a prefix matches whole segments only, after dot segments are resolved', async () => {
    const setup = await twoOperators('/acme', '/acme2');
    await reaches(setup, '/acme2/pay', 1, '/acme2/pay');
    await reaches(setup, '/acme/pay', 0, '/acme/pay');
    await reaches(setup, '/acme2/../acme/pay', 0, '/acme/pay');
    await reaches(setup, '/acme/../acme2/pay', 1, '/acme2/pay');
    await reaches(setup, '/acme/%2e%2e/acme2/pay', 1, '/acme2/pay');
  });
});
