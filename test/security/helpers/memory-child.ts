// A desk and its capture proxy alone in a process, so that the parent can measure the proxy's memory
// without its own (the load it generates) in the numbers. Run with --expose-gc: a measurement first
// collects garbage, so it sees what is retained, not what is merely not yet collected.
import { createDesk } from '../../../src-main/core/desk';

const [home, maxBody] = process.argv.slice(2);
if (!home || !maxBody || !process.send) throw new Error('usage: memory-child HOME MAX_BODY_BYTES (forked, with IPC)');
const desk = createDesk({ home });
const started = await desk.startProxy({ port: 0, upstream: null, maxBodyBytes: Number(maxBody) });
if (!started.ok) throw new Error(started.error.message);
const status = started.value.proxy;
const gc = (globalThis as { gc?: () => void }).gc;

process.on('message', (message: unknown) => {
  if (message === 'measure') {
    gc?.();
    gc?.();
    const m = process.memoryUsage();
    process.send!({ rss: m.rss, heapUsed: m.heapUsed, arrayBuffers: m.arrayBuffers, gc: gc !== undefined });
  } else if (message === 'stop') {
    void desk.close().then(() => process.exit(0));
  }
});
process.send({ port: status.port });
