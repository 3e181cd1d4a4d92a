// The IPC channel names main and preload agree on. Pure constants: the sandboxed preload bundles this
// file, and the main process's adapter imports it, so the two sides cannot drift apart.
import type { DeskMethod } from './desk-api';

/** Channels of DeskApi calls are `desk:<method>`. */
export const DESK_CHANNEL_PREFIX = 'desk:';

/** Events pushed from main to the window, as `{ name, payload }`. */
export const DESK_EVENT_CHANNEL = 'desk:event';

export function deskChannel(method: DeskMethod): string {
  return DESK_CHANNEL_PREFIX + method;
}
