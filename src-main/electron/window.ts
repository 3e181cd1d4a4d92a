// The one application window. Every webPreferences switch that matters for security is spelled out, even
// where it is Electron's default, so that the security lint and a reader can see it.
import { BrowserWindow } from 'electron';

export function createMainWindow(preloadPath: string): BrowserWindow {
  const win = new BrowserWindow({
    width: 1360,
    height: 860,
    minWidth: 900,
    minHeight: 560,
    show: false,
    title: 'Wager Desk',
    backgroundColor: '#101418',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      safeDialogs: true,
      // A middle click would otherwise ask to open a link in a new window (denied anyway, but never asked).
      disableBlinkFeatures: 'Auxclick',
    },
  });
  // Shown once painted, so the user never sees an empty white frame.
  win.once('ready-to-show', () => win.show());
  return win;
}
