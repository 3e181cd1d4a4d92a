// Forward mode: a sender cannot make the forwarded request differ from its row in what the interface
// needs. Naming the signature (or another end-to-end field) in Connection does not strip it; a target
// with dot segments or empty segments is normalized, and never reaches above the upstream's base path.
import { describe, expect, it } from 'vitest';
import { normalizedPath, upstreamPath } from '../../src-main/core/proxy/forward-path';
import { sign } from '../../src-main/core/signing';
import { closeAfterTest } from '../helpers/closing';
import { openDesk } from '../helpers/desk';
import { rawRoundTrip } from '../helpers/raw-socket';
import { startRecorder } from '../helpers/servers';
import { latest, startProxy } from '../integration/proxy/helpers';

const SECRET = 'hop-by-hop-secret-44d0';

async function forwarding(basePath = '') {
  const upstream = closeAfterTest(await startRecorder());
  const desk = openDesk();
  expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
  expect((await desk.useProfile('p')).ok).toBe(true);
  const { port } = await startProxy(desk, { upstream: upstream.url + basePath });
  return { desk, port, upstream };
}

describe('hop-by-hop headers cannot remove the signature', () => {
  it('"Connection: close, x-server-authorization, content-type": both still forwarded, the row and the upstream agree', async () => {
    const { desk, port, upstream } = await forwarding();
    const body = JSON.stringify({ userId: 'u', depositId: 'hop', currency: 'USD', amount: 1 });
    const signature = sign(Buffer.from(body), SECRET);
    const answer = await rawRoundTrip(
      port,
      `POST /platform/pay HTTP/1.1\r\nHost: x\r\nConnection: close, x-server-authorization, Content-Type, x-hop\r\nX-Hop: 1\r\nContent-Type: application/json\r\nX-Server-Authorization: ${signature}\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect(answer.statuses).toEqual([200]);
    const got = upstream.received[0]!;
    expect(got.headers['x-server-authorization']).toBe(signature);
    expect(got.headers['content-type']).toBe('application/json');
    // A field that is only the connection's is still dropped.
    expect(got.headers['x-hop']).toBeUndefined();
    expect((await latest(desk)).signature.verdict).toBe('valid');
  });
});

describe('paths are normalized before forwarding', () => {
  it('"/../../admin//x" under the base path "/op" goes to "/op/admin/x", with a finding', async () => {
    const { desk, port, upstream } = await forwarding('/op');
    const answer = await rawRoundTrip(port, 'POST /../../admin//x?a=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}');
    expect(answer.statuses).toEqual([200]);
    expect(upstream.received[0]!.url).toBe('/op/admin/x?a=1');
    const row = await latest(desk);
    expect(row.path).toBe('/../../admin//x');
    expect(row.findings.map((f) => f.message).join('\n')).toMatch(/forwarded normalized, as "\/op\/admin\/x\?a=1"/);
  });

  it('resolves dot segments, percent-encoded ones too, and never climbs above the top', () => {
    expect(normalizedPath('/a/./b/../c')).toBe('/a/c');
    expect(normalizedPath('/%2e%2E/%2e/admin')).toBe('/admin');
    expect(normalizedPath('//x///y/')).toBe('/x/y/');
    expect(normalizedPath('/..')).toBe('/');
    expect(upstreamPath('/base', '/platform/pay?x=/../y')).toEqual({ path: '/base/platform/pay?x=/../y', normalized: false });
    expect(upstreamPath('/base', '/a/../../../etc')).toEqual({ path: '/base/etc', normalized: true });
  });
});
