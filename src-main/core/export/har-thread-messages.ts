// What the desk and its export thread share (har-thread.ts, desk/export-thread-main.ts): their messages,
// and the thread's priority.
import type { DetailRows } from '../store/rows/exchange-rows';
import type { RowsReadElsewhere } from '../store/rows/export-rows';
import type { DeskErrorCode } from '../../shared/model';

/**
 * The export thread's nice value, the reading threads' own: on Linux a thread's nice is its own
 * (setpriority on the calling thread), so the thread yields the cores to the proxy's thread and to a
 * team's PostgreSQL whenever they want one, and takes them whole when they are idle. Linux only: on macOS
 * and Windows the same call sets the whole process's priority, the proxy's thread with it.
 */
export const EXPORT_THREAD_NICE = 10;

/** A job's slice as it crosses to the thread: its rows, or where the thread reads them itself. */
export interface ThreadSlice {
  ids: readonly number[];
  found: DetailRows | Pick<RowsReadElsewhere, 'readThere'>;
}

export interface HarThreadJob {
  job: number;
  slice: ThreadSlice;
  secrets: readonly string[];
}

/**
 * A job's reply: its text, or its failure's message and the desk's error code where it had one (a read's,
 * say). Before it, for a slice the thread reads itself, `readDone`: the read is over, the entries are
 * being built.
 */
export type HarThreadReply =
  { job: number; ok: true; text: string } | { job: number; ok: false; message: string; code?: DeskErrorCode } | { job: number; readDone: true };
