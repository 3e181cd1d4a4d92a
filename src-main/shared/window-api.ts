// The type of `window.wagerDesk`, the object the Electron preload exposes to the renderer: one function
// per DeskApi method plus a typed event subscription. Pure types; the renderer's api module uses it to
// choose IPC (when `window.wagerDesk` exists) or HTTP (the web mode, where it does not).
import type { DeskApi, DeskEventListener } from './desk-api';

/** The global name the preload exposes. */
export type WindowApiKey = 'wagerDesk';

/** Stops delivering events to the listener it was returned for. */
export type Unsubscribe = () => void;

export interface WagerDeskWindowApi extends DeskApi {
  /** Receives every desk event (`exchange`, `status`, `check-progress`, `redeliver-progress`, `profiles`) until the returned function is called. */
  onEvent(listener: DeskEventListener): Unsubscribe;
}

declare global {
  interface Window {
    /** Present inside the Electron app only. */
    readonly wagerDesk?: WagerDeskWindowApi;
  }
}
