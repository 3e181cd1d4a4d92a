// The proxy through DeskApi: status, events, refusals of bad settings, the exposure warning, and the
// proxy going away with the desk.
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import type { DeskStatus } from '../../../src-main/shared/model';
import { tempDir } from '../../helpers/temp';
import { send } from './helpers';
import { openDesk } from '../../helpers/desk';
import { must } from '../../helpers/must';

describe('proxy status through the desk', () => {
  it('reports stopped, running and stopped again, with a status event each time', async () => {
    const desk = openDesk();
    const events: DeskStatus[] = [];
    desk.on((name, payload) => {
      if (name === 'status') events.push(payload as DeskStatus);
    });
    const idle = must(await desk.getStatus());
    expect(idle.proxy).toMatchObject({ running: false, url: null, port: null, mode: 'sandbox', upstream: null, warning: null });
    expect(idle.counts).toEqual({ inbound: 0, outbound: 0 });

    const running = must(await desk.startProxy({ port: 0 }));
    expect(running.proxy).toMatchObject({ running: true, host: '127.0.0.1', mode: 'sandbox', warning: null });
    expect(running.proxy.url).toBe(`http://127.0.0.1:${running.proxy.port}`);
    await send(running.proxy.url!, { body: '{}' });
    expect(must(await desk.getStatus()).counts.inbound).toBe(1);

    const stopped = must(await desk.stopProxy());
    expect(stopped.proxy.running).toBe(false);
    expect(events.map((e) => e.proxy.running)).toEqual([true, false]);
    await expect(send(running.proxy.url!, { body: '{}' })).rejects.toThrow();
  });

  it('refuses a bad port or upstream with bad-input, and a busy port with proxy-error', async () => {
    const desk = openDesk();
    expect(await desk.startProxy({ port: 70000 })).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(await desk.startProxy({ port: 0, upstream: 'not a url' })).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(await desk.startProxy({ port: 0, upstream: 'file:///etc/passwd' })).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const busy = await desk.startProxy({ port: (blocker.address() as net.AddressInfo).port });
      expect(busy).toMatchObject({ ok: false, error: { code: 'proxy-error', message: expect.stringMatching(/already in use/) } });
    } finally {
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
    }
    expect(must(await desk.getStatus()).proxy.running).toBe(false);
  });

  it('warns when listening beyond loopback', async () => {
    const desk = openDesk();
    const status = must(await desk.startProxy({ host: '0.0.0.0', port: 0 }));
    expect(status.proxy.warning).toMatch(/exposes it/);
    expect((await send(`http://127.0.0.1:${status.proxy.port}`, { body: '{}' })).status).toBe(400);
  });

  it('stops with the desk', async () => {
    const desk = createDesk({ home: tempDir() });
    const status = must(await desk.startProxy({ port: 0 }));
    await desk.close();
    await expect(send(status.proxy.url!, { body: '{}' })).rejects.toThrow(/ECONNREFUSED/);
  });
});
