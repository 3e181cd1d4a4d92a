// DeskApi inside Electron: the preload's bridge already speaks DeskApi; this adds the connection state,
// which over IPC is simply always live.
import type { DeskBridge, DeskClient } from './types';

export function createIpcClient(bridge: DeskBridge): DeskClient {
  return {
    ...bridge,
    transport: 'electron',
    onEvent: (listener) => bridge.onEvent(listener),
    onConnection(listener) {
      listener('live', null);
      return () => {};
    },
  };
}
