// The export thread's entry point: it turns the rows of an export into the text of their HAR entries (each
// row's detail, its HAR entry with the secrets redacted, stringified and indented), work that on the
// proxy's thread would hold the callbacks behind it and fill its heap with garbage to collect. It reads
// the rows itself, on a connection of its own: a team's PostgreSQL's (store/postgres/thread-export-reads.ts)
// or the data directory's SQLite file's (store/sqlite/thread-export-reads.ts).
// It keeps nothing between jobs but those connections, and never logs: the secrets it is handed live only
// in the job that uses them. It opens an engine, so it is a file of the desk's composition root.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { EXPORT_THREAD_NICE, type HarThreadJob, type HarThreadReply, type ThreadSlice } from '../export/har-thread-messages';
import { harEntriesText } from '../export/har-entries-text';
import { DeskFailure } from '../result';
import { ThreadExportReads } from '../store/postgres/thread-export-reads';
import { SqliteThreadExportReads } from '../store/sqlite/thread-export-reads';
import type { DetailRow, DetailRows } from '../store/rows/exchange-rows';

/** A blob crosses threads as a Uint8Array: the rows' mapping expects the Buffers a driver hands out. */
const asBuffer = (bytes: Uint8Array | null): Buffer | null => (bytes === null ? null : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));

function withBuffers(row: DetailRow): DetailRow {
  return { ...row, req_body: asBuffer(row.req_body)!, res_body: asBuffer(row.res_body) };
}

const teamReads = new ThreadExportReads();
const fileReads = new SqliteThreadExportReads();

/** The slice's rows: read here from the source it names, or as they came (their blobs made Buffers again). */
async function rowsOf(found: ThreadSlice['found'], ids: readonly number[]): Promise<DetailRows> {
  if ('readThere' in found) {
    const source = found.readThere;
    return 'postgres' in source ? teamReads.exportRows(source, ids) : fileReads.exportRows(source, ids);
  }
  return { rows: found.rows.map(withBuffers), derived: found.derived };
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
  // Replies name their job: a job whose rows are read here may finish after one sent later.
  port.on('message', (job: HarThreadJob) => {
    void (async () => {
      let reply: HarThreadReply;
      try {
        const { ids, found } = job.slice;
        const rows = await rowsOf(found, ids);
        // The read is over: the desk counts it as under way (SQLite's checkpointer waits meanwhile) no longer.
        if ('readThere' in found) port.postMessage({ job: job.job, readDone: true } satisfies HarThreadReply);
        reply = { job: job.job, ok: true, text: harEntriesText({ ids, found: rows }, job.secrets) };
      } catch (err) {
        const code = err instanceof DeskFailure ? { code: err.code } : {};
        reply = { job: job.job, ok: false, message: err instanceof Error ? err.message : String(err), ...code };
      }
      port.postMessage(reply);
    })();
  });
}
