// The preload's surface against the contract, without Electron: `window.wagerDesk` has one function per
// DeskApi method and onEvent, nothing else, and nothing of ipcRenderer reaches the page.
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import { describe, expect, it, vi } from 'vitest';
import { DESK_EVENT_CHANNEL } from '../../../src-main/shared/ipc-channels';
import { buildWagerDeskSurface, type Subscribe } from '../../../src-main/preload/surface';
import { DESK_METHODS } from '../../../src-main/shared/desk-api';
import type { WagerDeskWindowApi } from '../../../src-main/shared/window-api';

type Listener = (event: unknown, message: unknown) => void;

/** Stands in for Electron's contextBridge and ipcRenderer, recording what the preload does with them. */
function fakeElectron() {
  const exposed = new Map<string, unknown>();
  const listeners = new Map<string, Set<Listener>>();
  const ipcRenderer = {
    invoke: vi.fn((channel: string, ...args: unknown[]) => Promise.resolve({ ok: true, value: { channel, args } })),
    on: vi.fn((channel: string, listener: Listener) => {
      if (!listeners.has(channel)) listeners.set(channel, new Set());
      listeners.get(channel)!.add(listener);
      return ipcRenderer;
    }),
    removeListener: vi.fn((channel: string, listener: Listener) => {
      listeners.get(channel)?.delete(listener);
      return ipcRenderer;
    }),
    send: vi.fn(),
    sendSync: vi.fn(),
    postMessage: vi.fn(),
  };
  const contextBridge = {
    exposeInMainWorld: vi.fn((key: string, api: unknown) => {
      exposed.set(key, api);
    }),
  };
  /** What main's webContents.send would deliver; the event object carries ipcRenderer as its sender. */
  const emit = (channel: string, message: unknown) => {
    for (const l of listeners.get(channel) ?? []) l({ sender: ipcRenderer, senderId: 0 }, message);
  };
  return { exposed, listeners, ipcRenderer, contextBridge, emit };
}

const fake = vi.hoisted(() => ({ current: null as null | ReturnType<typeof fakeElectron> }));
vi.mock('electron', () => ({
  get contextBridge() {
    return fake.current!.contextBridge;
  },
  get ipcRenderer() {
    return fake.current!.ipcRenderer;
  },
}));

/** Every value reachable from the surface (own properties, one level of nesting is all there is). */
function reachable(surface: object): unknown[] {
  return Object.values(surface).flatMap((v) => (v && typeof v === 'object' ? [v, ...Object.values(v)] : [v]));
}

describe('the preload (src-main/preload/index.ts) with a fake contextBridge', () => {
  fake.current = fakeElectron();
  const electron = fake.current;
  const loaded = import('../../../src-main/preload/index');

  it('exposes exactly one object, as window.wagerDesk', async () => {
    await loaded;
    expect(electron.contextBridge.exposeInMainWorld).toHaveBeenCalledTimes(1);
    expect([...electron.exposed.keys()]).toEqual(['wagerDesk']);
  });

  it('has one function per DeskApi method plus onEvent, and nothing else', async () => {
    await loaded;
    const api = electron.exposed.get('wagerDesk') as Record<string, unknown>;
    expect(Object.keys(api).sort()).toEqual([...DESK_METHODS, 'onEvent'].sort());
    for (const [name, value] of Object.entries(api)) expect(typeof value, name).toBe('function');
  });

  it('never hands ipcRenderer, or any of its methods, to the page', async () => {
    await loaded;
    const api = electron.exposed.get('wagerDesk') as object;
    const ipcParts = [electron.ipcRenderer, ...Object.values(electron.ipcRenderer)];
    for (const value of reachable(api)) expect(ipcParts).not.toContain(value);
    expect(Object.keys(api)).not.toContain('ipcRenderer');
  });

  it('calls invoke on desk:<method> with the arguments, and returns its answer', async () => {
    await loaded;
    const api = electron.exposed.get('wagerDesk') as WagerDeskWindowApi;
    expect(await api.getExchange(12)).toEqual({ ok: true, value: { channel: 'desk:getExchange', args: [12] } });
    expect(await api.draftFollowUp(3, 'WIN')).toEqual({ ok: true, value: { channel: 'desk:draftFollowUp', args: [3, 'WIN'] } });
    expect(electron.ipcRenderer.send).not.toHaveBeenCalled();
    expect(electron.ipcRenderer.sendSync).not.toHaveBeenCalled();
  });

  it("delivers events as (name, payload), without Electron's event object, until unsubscribed", async () => {
    await loaded;
    const api = electron.exposed.get('wagerDesk') as WagerDeskWindowApi;
    const got: unknown[][] = [];
    const unsubscribe = api.onEvent((...args: unknown[]) => got.push(args));
    electron.emit(DESK_EVENT_CHANNEL, { name: 'status', payload: { n: 1 } });
    unsubscribe();
    electron.emit(DESK_EVENT_CHANNEL, { name: 'status', payload: { n: 2 } });
    expect(got).toEqual([['status', { n: 1 }]]);
    expect(electron.listeners.get(DESK_EVENT_CHANNEL)?.size ?? 0).toBe(0);
  });
});

describe('buildWagerDeskSurface', () => {
  const noSubscribe: Subscribe = () => () => undefined;

  it('sends every method to its own channel', async () => {
    const calls: unknown[][] = [];
    const surface = buildWagerDeskSurface(async (...args) => {
      calls.push(args);
      return null;
    }, noSubscribe) as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    for (const method of DESK_METHODS) await surface[method]!('a', 2);
    expect(calls).toEqual(DESK_METHODS.map((m) => [`desk:${m}`, 'a', 2]));
  });

  it('is frozen: the page cannot swap a method for another', () => {
    const surface = buildWagerDeskSurface(async () => null, noSubscribe);
    expect(Object.isFrozen(surface)).toBe(true);
  });

  it('drops messages that are not desk events, and refuses a listener that is not a function', () => {
    let deliver: ((event: unknown, message: unknown) => void) | undefined;
    const surface = buildWagerDeskSurface(
      async () => null,
      (channel, listener) => {
        expect(channel).toBe(DESK_EVENT_CHANNEL);
        deliver = listener;
        return () => undefined;
      },
    );
    const got: unknown[][] = [];
    surface.onEvent((...args: unknown[]) => got.push(args));
    for (const junk of [null, 'status', { payload: 1 }, { name: 'not-an-event', payload: 1 }, { name: 42 }]) deliver!({}, junk);
    deliver!({}, { name: 'exchange', payload: { id: 1 } });
    expect(got).toEqual([['exchange', { id: 1 }]]);
    expect(() => surface.onEvent('nope' as never)).toThrow(TypeError);
  });
});

describe('the preload bundle', () => {
  it('requires nothing but electron, as a sandboxed preload must', async () => {
    const out = await build({
      entryPoints: ['src-main/preload/index.ts'],
      bundle: true,
      format: 'cjs',
      platform: 'node',
      external: ['electron'],
      write: false,
      logLevel: 'silent',
    });
    const code = out.outputFiles[0]!.text;
    const electron = fakeElectron();
    const required: string[] = [];
    const module = { exports: {} };
    runInNewContext(code, {
      module,
      exports: module.exports,
      require: (name: string) => {
        required.push(name);
        if (name === 'electron') return { contextBridge: electron.contextBridge, ipcRenderer: electron.ipcRenderer };
        throw new Error(`a sandboxed preload cannot require ${name}`);
      },
    });
    expect(required).toEqual(['electron']);
    expect(Object.keys(electron.exposed.get('wagerDesk') as object).sort()).toEqual([...DESK_METHODS, 'onEvent'].sort());
  });
});
