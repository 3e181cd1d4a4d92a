// DeskApi over Electron IPC: one ipcMain.handle channel per method, each refusing any sender that is not
// the app's own page, and the desk's events forwarded to the window. Written against the small slice of
// ipcMain it uses, so a test can hand it a fake registry; main.ts hands it Electron's ipcMain.
import { checkDeskArgs } from '../shared/desk-args';
import { DESK_METHODS, type DeskApi, type DeskEventName, type DeskEvents, type DeskEventSource } from '../shared/desk-api';
import type { Result } from '../shared/model';
import { toDeskError } from '../core/desk/shell-kit';
import { DESK_EVENT_CHANNEL, deskChannel } from '../shared/ipc-channels';
import { isTrustedSender, type SenderFrame } from './guards';

/** What a handler reads of Electron's IpcMainInvokeEvent. */
export interface InvokeEvent {
  readonly senderFrame: SenderFrame | null;
}

/** The slice of Electron's ipcMain the adapter uses. */
export interface IpcHandlerRegistry {
  handle(channel: string, listener: (event: InvokeEvent, ...args: unknown[]) => unknown): void;
  removeHandler(channel: string): void;
}

/** What goes over `desk:event`. */
export interface DeskEventMessage<K extends DeskEventName = DeskEventName> {
  name: K;
  payload: DeskEvents[K];
}

type AnyMethod = (...args: unknown[]) => Promise<Result<unknown>>;

export function forbidden(channel: string): Result<never> {
  return {
    ok: false,
    error: { code: 'forbidden', message: `Refused ${channel}: the caller is not Wager Desk's own page.` },
  };
}

/**
 * Registers `desk:<method>` for every DeskApi method; returns the function that removes them all.
 * `appUrl` is read on every call (a function) so the check follows the URL the window really loaded.
 * Every answer is a Result: a refused sender gets code 'forbidden', arguments that do not fit the
 * method's schema (shared/desk-args) get 'bad-input' naming the argument, and a method that throws (it should
 * not: the desk wraps its methods) still answers with a typed error rather than a bare IPC rejection,
 * which would lose everything but its message.
 */
export function registerDeskIpc(ipc: IpcHandlerRegistry, desk: DeskApi, appUrl: () => string): () => void {
  const channels: string[] = [];
  for (const method of DESK_METHODS) {
    const channel = deskChannel(method);
    const call = (desk[method] as AnyMethod).bind(desk);
    ipc.handle(channel, async (event: InvokeEvent, ...args: unknown[]): Promise<Result<unknown>> => {
      if (!isTrustedSender(event.senderFrame, appUrl())) return forbidden(channel);
      const bad = checkDeskArgs(method, args);
      if (bad) return { ok: false, error: bad };
      try {
        return await call(...args);
      } catch (err) {
        return { ok: false, error: toDeskError(err) };
      }
    });
    channels.push(channel);
  }
  return () => {
    for (const channel of channels) ipc.removeHandler(channel);
  };
}

/** Sends every desk event to the window as `desk:event` { name, payload }; returns the unsubscribe. */
export function forwardDeskEvents(desk: DeskEventSource, send: (channel: string, message: DeskEventMessage) => void): () => void {
  return desk.on((name, payload) => {
    send(DESK_EVENT_CHANNEL, { name, payload } as DeskEventMessage);
  });
}
