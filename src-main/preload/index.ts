// The sandboxed preload (built as CommonJS: out/preload/index.cjs). It exposes `window.wagerDesk`, one
// function per DeskApi method and onEvent, and never ipcRenderer itself. A sandboxed preload can require
// only 'electron' (and a few Node built-ins); everything else here is bundled.
import { contextBridge, ipcRenderer } from 'electron';
import type { WindowApiKey } from '../shared/window-api';
import { buildWagerDeskSurface } from './surface';

const key: WindowApiKey = 'wagerDesk';

contextBridge.exposeInMainWorld(
  key,
  buildWagerDeskSurface(
    (channel, ...args) => ipcRenderer.invoke(channel, ...args),
    (channel, listener) => {
      ipcRenderer.on(channel, listener);
      return () => {
        ipcRenderer.removeListener(channel, listener);
      };
    },
  ),
);
