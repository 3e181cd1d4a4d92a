// The web mode: the same DeskApi as the desktop app, over loopback HTTP with server-sent events,
// serving the same React bundle. `wager-desk serve` starts it next to the capture proxy.
import type { Desk } from '../../core/desk';
import { startWebUi as start, type WebUi, type WebUiOptions, type WebUiStats } from './server';

export type { WebUi, WebUiOptions, WebUiStats };
export { CONTENT_SECURITY_POLICY } from './static';

/** Starts the web UI for a desk; the returned url carries the per-run access token in its fragment. */
export function startWebUi(desk: Desk, options: WebUiOptions): Promise<WebUi> {
  return start(desk, options);
}
