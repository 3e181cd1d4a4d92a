// The IPC adapter against the DeskApi contract, with a fake ipcMain registry (Electron cannot run here)
// and the real desk on a temporary data directory.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { forwardDeskEvents, registerDeskIpc, type InvokeEvent, type IpcHandlerRegistry } from '../../../src-main/electron/ipc';
import { DESK_EVENT_CHANNEL } from '../../../src-main/shared/ipc-channels';
import { DESK_METHODS, type DeskApi } from '../../../src-main/shared/desk-api';
import type { Result } from '../../../src-main/shared/model';
import { VALID_CALLS } from '../../helpers/desk-calls';
import { tempDir } from '../../helpers/temp';

const APP_URL = 'file:///opt/wager-desk/out/renderer/index.html';
const appFrame = { url: APP_URL, parent: null };

/** Stands in for ipcMain: one handler a channel (Electron throws on a second), and invoke() as a
 *  renderer would, structured-cloning the arguments and the answer as IPC does. */
class FakeIpcMain implements IpcHandlerRegistry {
  readonly handlers = new Map<string, (event: InvokeEvent, ...args: unknown[]) => unknown>();
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  async invoke(frame: InvokeEvent['senderFrame'], channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return structuredClone(await handler({ senderFrame: frame }, ...structuredClone(args)));
  }
}

/** The real desk, counting the calls that reach it. */
function counted(desk: Desk): { api: DeskApi; calls: string[] } {
  const calls: string[] = [];
  const api = new Proxy(desk, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || typeof prop !== 'string') return value;
      return (...args: unknown[]) => {
        calls.push(prop);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { api, calls };
}

let desk: Desk;
let ipc: FakeIpcMain;

beforeEach(() => {
  desk = createDesk({ home: tempDir() });
  ipc = new FakeIpcMain();
});

afterEach(async () => {
  await desk.close();
});

describe('registerDeskIpc', () => {
  it('handles one desk:<method> channel per DeskApi method, and nothing else', () => {
    registerDeskIpc(ipc, desk, () => APP_URL);
    expect([...ipc.handlers.keys()].sort()).toEqual(DESK_METHODS.map((m) => `desk:${m}`).sort());
    expect(ipc.handlers.size).toBe(DESK_METHODS.length);
    expect(ipc.handlers.has(DESK_EVENT_CHANNEL)).toBe(false);
  });

  it("answers the app page with the desk's own Results", async () => {
    registerDeskIpc(ipc, desk, () => APP_URL);
    expect(await ipc.invoke(appFrame, 'desk:listProfiles')).toEqual({ ok: true, value: [] });

    const saved = (await ipc.invoke(appFrame, 'desk:saveProfile', { name: 'staging', secret: 'canary-secret-7f3a' })) as Result<unknown>;
    expect(saved.ok).toBe(true);
    // The secret went in, and only its fingerprint comes back over IPC.
    expect(JSON.stringify(saved)).not.toContain('canary-secret-7f3a');
    const listed = (await ipc.invoke(appFrame, 'desk:listProfiles')) as Result<Array<{ name: string }>>;
    expect(listed.ok && listed.value.map((p) => p.name)).toEqual(['staging']);
  });

  it("keeps the desk's error codes across the channel", async () => {
    registerDeskIpc(ipc, desk, () => APP_URL);
    expect(await ipc.invoke(appFrame, 'desk:getExchange', 424242)).toEqual({
      ok: false,
      error: { code: 'not-found', message: expect.stringContaining('424242') },
    });
    expect(await ipc.invoke(appFrame, 'desk:getTimeline', '')).toMatchObject({ ok: false, error: { code: 'bad-input' } });
  });

  it.each([
    ['another page', { url: 'https://app.example.com.attacker.test/', parent: null }],
    ['another local file', { url: 'file:///etc/passwd', parent: null }],
    ['a data: page', { url: 'data:text/html,<script>1</script>', parent: null }],
    ['an iframe of the app page', { url: APP_URL, parent: { url: APP_URL } }],
    ['a frame that is gone', null],
  ])('refuses %s on every channel with a forbidden Result, and never calls the desk', async (_name, frame) => {
    const { api, calls } = counted(desk);
    registerDeskIpc(ipc, api, () => APP_URL);
    for (const method of DESK_METHODS) {
      const answer = await ipc.invoke(frame, `desk:${method}`, { name: 'x' });
      expect(answer, method).toEqual({ ok: false, error: { code: 'forbidden', message: expect.stringContaining(`desk:${method}`) } });
    }
    expect(calls).toEqual([]);
    expect(await ipc.invoke(frame, 'desk:listProfiles')).toMatchObject({ ok: false });
  });

  it('checks the sender against the app URL of the moment', async () => {
    let current = APP_URL;
    registerDeskIpc(ipc, desk, () => current);
    expect(await ipc.invoke(appFrame, 'desk:listProfiles')).toMatchObject({ ok: true });
    current = 'http://localhost:5173/';
    expect(await ipc.invoke(appFrame, 'desk:listProfiles')).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await ipc.invoke({ url: 'http://localhost:5173/#/x', parent: null }, 'desk:listProfiles')).toMatchObject({ ok: true });
  });

  it('turns a method that throws into a typed error instead of a rejected invoke', async () => {
    const broken = {
      ...desk,
      listProfiles: () => {
        throw new Error('disk on fire');
      },
      getStatus: () => Promise.reject(Object.assign(new Error('no such thing'), { code: 'not-found' })),
    } as unknown as DeskApi;
    registerDeskIpc(ipc, broken, () => APP_URL);
    expect(await ipc.invoke(appFrame, 'desk:listProfiles')).toEqual({ ok: false, error: { code: 'internal', message: 'disk on fire' } });
    expect(await ipc.invoke(appFrame, 'desk:getStatus')).toEqual({ ok: false, error: { code: 'not-found', message: 'no such thing' } });
  });

  it('routes each channel to its own method, with the arguments as sent', async () => {
    // A desk whose every method echoes its name and arguments: routing, not the desk, is under test here
    // (the real desk's startProxy, say, would open a port).
    const echo = Object.fromEntries(
      DESK_METHODS.map((m) => [m, (...args: unknown[]) => Promise.resolve({ ok: true, value: { method: m, args } })]),
    ) as unknown as DeskApi;
    registerDeskIpc(ipc, echo, () => APP_URL);
    for (const method of DESK_METHODS) {
      const args = VALID_CALLS[method] as unknown[];
      expect(await ipc.invoke(appFrame, `desk:${method}`, ...args), method).toEqual({ ok: true, value: { method, args } });
    }
  });

  it.each([
    ['saveProfile', [{ name: 'x', allowSelfSigned: 'no' }], 'input.allowSelfSigned'],
    ['saveProfile', [{ name: 'x', production: 'yes' }], 'input.production'],
    ['saveProfile', [{ name: 7 }], 'input.name'],
    ['getExchange', ['5; DROP TABLE exchanges'], 'id'],
    ['setSandboxBalance', ['u-1', '100'], 'balance'],
    ['startProxy', [{ port: '8787' }], 'config.port'],
    ['send', [{ draft: { method: 'POST', path: '/platform/pay', headers: [['a', 1]], bodyBase64: '' } }], 'request.draft.headers[0][1]'],
    ['getTimeline', ['d-1', 'p', 'extra'], 'takes 2 arguments'],
  ])('answers %s with wrong arguments %j by bad-input naming %s, before the desk is called', async (method, args, named) => {
    const { api, calls } = counted(desk);
    registerDeskIpc(ipc, api, () => APP_URL);
    const answer = (await ipc.invoke(appFrame, `desk:${method}`, ...args)) as Result<unknown>;
    expect(answer).toMatchObject({ ok: false, error: { code: 'bad-input' } });
    expect(!answer.ok && answer.error.message).toContain(named);
    expect(calls).toEqual([]);
    expect(await ipc.invoke(appFrame, 'desk:listProfiles')).toEqual({ ok: true, value: [] });
  });

  it('never echoes a value given where a secret belongs, only its kind', async () => {
    registerDeskIpc(ipc, desk, () => APP_URL);
    for (const [method, args, field] of [
      ['saveProfile', [{ name: 'x', secret: 424242424242 }], 'input.secret'],
      ['saveProfile', [{ name: 'x', apiKey: ['ak-live-9d8c7b6a'] }], 'input.apiKey'],
      ['send', [{ draft: { method: 'POST', path: '/p', headers: [], bodyBase64: '' }, customSecret: { s: 'cs-31337-zz' } }], 'request.customSecret'],
    ] as const) {
      const answer = (await ipc.invoke(appFrame, `desk:${method}`, ...args)) as Result<unknown>;
      expect(!answer.ok && answer.error.message, method).toContain(field);
      expect(JSON.stringify(answer)).not.toMatch(/424242424242|ak-live-9d8c7b6a|cs-31337-zz/);
    }
  });

  it('removes every channel it registered', () => {
    const remove = registerDeskIpc(ipc, desk, () => APP_URL);
    remove();
    expect(ipc.handlers.size).toBe(0);
    // and can register again (Electron refuses a second handler on a live channel)
    registerDeskIpc(ipc, desk, () => APP_URL);
    expect(ipc.handlers.size).toBe(DESK_METHODS.length);
  });
});

describe('forwardDeskEvents', () => {
  it('sends every desk event on desk:event as { name, payload } until unsubscribed', async () => {
    const sent: Array<[string, unknown]> = [];
    const stop = forwardDeskEvents(desk, (channel, message) => sent.push([channel, message]));
    const started = await desk.startProxy({ port: 0, upstream: null });
    const stopped = await desk.stopProxy();
    stop();
    await desk.startProxy({ port: 0 });
    await desk.stopProxy();
    expect(started.ok && stopped.ok).toBe(true);
    expect(sent).toEqual([
      [DESK_EVENT_CHANNEL, { name: 'status', payload: started.ok && started.value }],
      [DESK_EVENT_CHANNEL, { name: 'status', payload: stopped.ok && stopped.value }],
    ]);
  });
});
