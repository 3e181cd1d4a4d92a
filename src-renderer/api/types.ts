// What feature code sees of the main side: DeskApi plus event and connection subscriptions. The two
// transports (Electron's preload bridge, HTTP + event stream) both produce this shape.
import type { DeskApi, DeskEventListener } from '../../src-main/shared/desk-api';
import type { WagerDeskWindowApi } from '../../src-main/shared/window-api';

/**
 * 'live': events flow; 'connecting': (re)opening the event stream; 'offline': it failed, retrying;
 * 'denied': the desk refuses this page (no or a stale access token): nothing works until it is reopened.
 */
export type ConnectionState = 'connecting' | 'live' | 'offline' | 'denied';

export interface DeskClient extends DeskApi {
  /** Every desk event; returns the unsubscribe function. */
  onEvent(listener: DeskEventListener): () => void;
  /** The state of the event channel; the listener is called at once with the current state. */
  onConnection(listener: (state: ConnectionState, detail: string | null) => void): () => void;
  /** 'electron' or 'web': shown to the user, never branched on by features. */
  readonly transport: 'electron' | 'web';
}

/** The preload's surface (window.wagerDesk): one function per DeskApi method and a typed event subscription. */
export type DeskBridge = WagerDeskWindowApi;
