// The export thread's entry point: it turns the rows the log read into the text of their HAR entries
// (each row's detail, its HAR entry with the secrets redacted, stringified and indented), work that on
// the proxy's thread would hold the callbacks behind it and fill its heap with garbage to collect. It
// keeps nothing between jobs, and never logs: the secrets it is handed live only in the job that uses them.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { EXPORT_THREAD_NICE, type HarThreadJob, type HarThreadReply } from './har-thread-messages';
import { harEntriesText } from './har-entries-text';
import type { DetailRow } from '../store/rows/exchange-rows';

/** A blob crosses threads as a Uint8Array: the rows' mapping expects the Buffers a driver hands out. */
const asBuffer = (bytes: Uint8Array | null): Buffer | null => (bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

function withBuffers(row: DetailRow): DetailRow {
  return { ...row, req_body: asBuffer(row.req_body)!, res_body: asBuffer(row.res_body) };
}

const port = parentPort;
if (port) {
  if (process.platform === 'linux') {
    try {
      setPriority(0, EXPORT_THREAD_NICE);
    } catch {
      // Not allowed here (a container's limits): the thread runs at the process's priority.
    }
  }
  port.on('message', (job: HarThreadJob) => {
    let reply: HarThreadReply;
    try {
      const { ids, found } = job.slice;
      // Rows as text are made rows here (harEntriesText); rows as rows have their blobs made Buffers again.
      const rows = 'texts' in found ? found : { rows: found.rows.map(withBuffers), derived: found.derived };
      reply = { job: job.job, ok: true, text: harEntriesText({ ids, found: rows }, job.secrets) };
    } catch (err) {
      reply = { job: job.job, ok: false, message: err instanceof Error ? err.message : String(err) };
    }
    port.postMessage(reply);
  });
}
