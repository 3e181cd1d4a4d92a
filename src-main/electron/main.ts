// Placeholder: the Electron shell is built in its own issue.
import { app, BrowserWindow } from 'electron';

void app.whenReady().then(() => {
  const win = new BrowserWindow({ webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false } });
  void win.loadURL('about:blank');
});
