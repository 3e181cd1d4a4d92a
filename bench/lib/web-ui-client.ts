// A page of the web mode that calls one desk method without pause: POST /api/<method> to the desk's web UI
// server, from a thread of its own, as a browser (a process of its own) sends them. The answers are read
// whole there, as the page reads them; only the counts come back. What the calls cost the desk's thread
// (reading the request, the method, writing its answer) is then on that thread, as with a real page.
import { Worker } from 'node:worker_threads';
import { TEXT_VALUE_HEADER } from '../../src-main/shared/web-wire';

/** Calls made until told to stop: how many, how many failed, their mean time. */
export interface BusyUi {
  stop(): Promise<{ ops: number; failedOps: number; opMs: number }>;
}

// CommonJS, evaluated in the worker: the loop, the answer read as the page's http-client reads it.
const PAGE = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, token, method, args, textHeader } = workerData;
let running = true;
parentPort.once('message', () => (running = false));
(async () => {
  let ops = 0, failedOps = 0, totalMs = 0;
  while (running) {
    const t0 = performance.now();
    let ok = false;
    try {
      const res = await fetch(url + '/api/' + method, {
        method: 'POST',
        headers: { authorization: 'Bearer ' + token, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
      if (res.status === 200 && res.headers.get(textHeader) === 'text') ok = (await res.text()).length > 0;
      else {
        const r = await res.json();
        ok = r.ok === true;
      }
    } catch {}
    totalMs += performance.now() - t0;
    ops++;
    if (!ok) failedOps++;
  }
  parentPort.postMessage({ ops, failedOps, opMs: ops ? totalMs / ops : 0 });
})();
`;

/** `ui`: the web UI's base URL and token. */
export function busyWebUi(ui: { url: string; token: string }, method: string, args: unknown[]): BusyUi {
  const worker = new Worker(PAGE, { eval: true, workerData: { ...ui, method, args, textHeader: TEXT_VALUE_HEADER } });
  // Ends the phase whatever becomes of the page: its counts, its error, or its exit without them.
  const done = new Promise<{ ops: number; failedOps: number; opMs: number }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The page's thread exited (${code}) without its counts.`)));
  });
  // A run that fails before it stops the page does not stay alive for it.
  worker.unref();
  return {
    async stop() {
      worker.postMessage('stop');
      const counts = await done;
      await worker.terminate();
      return counts;
    },
  };
}
