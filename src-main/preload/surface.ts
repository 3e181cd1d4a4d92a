// The object the preload exposes as `window.wagerDesk`, built from two capabilities (invoke a channel,
// subscribe to one) rather than from ipcRenderer itself, so that a test can check it against the
// contract without Electron, and so that nothing of ipcRenderer can leak into the page: the page gets
// plain functions, and event listeners receive (name, payload), never Electron's event object (whose
// `sender` is ipcRenderer).
import { DESK_EVENTS, DESK_METHODS, type DeskEventListener, type DeskEventName } from '../shared/desk-api';
import type { WagerDeskWindowApi } from '../shared/window-api';
import { DESK_EVENT_CHANNEL, deskChannel } from '../shared/ipc-channels';

export type Invoke = (channel: string, ...args: unknown[]) => Promise<unknown>;
/** Subscribes to a channel; the listener gets Electron's event first, which must not reach the page. */
export type Subscribe = (channel: string, listener: (event: unknown, message: unknown) => void) => () => void;

const EVENT_NAMES: ReadonlySet<string> = new Set(DESK_EVENTS);

function isDeskEvent(message: unknown): message is { name: DeskEventName; payload: unknown } {
  return (
    typeof message === 'object' &&
    message !== null &&
    typeof (message as { name?: unknown }).name === 'string' &&
    EVENT_NAMES.has((message as { name: string }).name)
  );
}

export function buildWagerDeskSurface(invoke: Invoke, subscribe: Subscribe): WagerDeskWindowApi {
  const surface: Record<string, unknown> = {};
  for (const method of DESK_METHODS) {
    const channel = deskChannel(method);
    surface[method] = (...args: unknown[]) => invoke(channel, ...args);
  }
  surface.onEvent = (listener: DeskEventListener) => {
    if (typeof listener !== 'function') throw new TypeError('wagerDesk.onEvent needs a function');
    return subscribe(DESK_EVENT_CHANNEL, (_event, message) => {
      if (isDeskEvent(message)) listener(message.name, message.payload as never);
    });
  };
  return Object.freeze(surface) as unknown as WagerDeskWindowApi;
}
