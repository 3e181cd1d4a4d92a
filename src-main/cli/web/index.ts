// The web mode: the same DeskApi as the desktop app, over loopback HTTP with server-sent events,
// serving the same React bundle. `wager-desk serve` starts it next to the capture proxy.
export { startWebUi, type WebUi, type WebUiOptions, type WebUiStats } from './server';
