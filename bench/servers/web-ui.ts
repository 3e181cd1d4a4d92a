// The web UI over a prepared data directory, in its own process: the same createDesk + startWebUi that
// `wager-desk serve` runs, with the renderer folder given explicitly (the benchmark may have built a
// fresh one). Usage: node --import tsx bench/servers/web-ui.ts HOME RENDERER_DIR   (prints "ui: URL")
import { startWebUi } from '../../src-main/cli/web';
import { createDesk } from '../../src-main/core/desk';

const [home, rendererDir] = process.argv.slice(2);
if (!home || !rendererDir) {
  process.stderr.write('usage: web-ui.ts HOME RENDERER_DIR\n');
  process.exit(2);
}
const desk = createDesk({ home });
const ui = await startWebUi(desk, { port: 0, rendererDir });
process.stdout.write(`ui: ${ui.url}\n`);
const stop = (): void => {
  void ui
    .close()
    .then(() => desk.close())
    .then(() => process.exit(0));
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
