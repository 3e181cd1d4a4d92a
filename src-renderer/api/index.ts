// The one module that talks to the main side. Inside Electron the preload exposes window.wagerDesk;
// in the web mode there is none and the page talks HTTP to the server it was loaded from. Feature
// code imports `desk` and never learns which.
import { reloadOnNewToken, takeAccessToken } from './access-token';
import { createHttpClient } from './http-client';
import { createIpcClient } from './ipc-client';
import type { DeskClient } from './types';

export type { ConnectionState, DeskClient } from './types';

function chooseClient(): DeskClient {
  const bridge = window.wagerDesk;
  if (bridge) return createIpcClient(bridge);
  reloadOnNewToken();
  return createHttpClient(takeAccessToken());
}

export const desk: DeskClient = chooseClient();
