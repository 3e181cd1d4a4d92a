// A HAR's text, read a slice of rows at a time (one read of the log for many) and built by `build` (on
// the export thread, har-thread.ts): the proxy's thread only has the rows read (by the log, or by the
// thread itself where the log leaves them to it), hands them over and joins the text, and reads the next
// slice while the thread builds the last. The text is byte for byte what JSON.stringify(har, null, 2)
// gives for the whole HAR.
import { foundNone, type ExportRead } from '../store/rows/export-rows';
import { callerSignal } from '../caller-signal';
import { harWith } from './har-build';
import { harEntriesHere, type HarEntriesBuilder } from './har-entries-text';

/** Exchanges read at once (one read of the log): enough to amortize a read, few enough to hold little memory. */
const READ_SLICE = 50;
/**
 * Slices being built at once. A read that leaves the rows to the export thread answers at once, so without
 * a bound every slice would go to the thread before the first was built, and on after the caller went away.
 */
const BUILDS_AHEAD = 2;

/** The HAR 1.2 text (pretty-printed, one final newline) of the exchanges `ids` names that `read` finds, in the order of `ids`. */
export async function harText(
  ids: readonly number[],
  read: (ids: readonly number[]) => Promise<ExportRead>,
  secrets: readonly string[],
  comment: string,
  build: HarEntriesBuilder = harEntriesHere,
): Promise<string> {
  const signal = callerSignal();
  const built: Array<Promise<string>> = [];
  for (let from = 0; from < ids.length; from += READ_SLICE) {
    const slice = ids.slice(from, from + READ_SLICE);
    if (built.length >= BUILDS_AHEAD) await built[built.length - BUILDS_AHEAD];
    const found = await read(slice);
    // The caller went away: what is still to read and build is no one's.
    signal?.throwIfAborted();
    if (foundNone(found)) continue;
    const text = build({ ids: slice, found }, secrets);
    // Handled below; a build that fails while a later slice is read, or after a read failed, is not unhandled.
    text.catch(() => undefined);
    built.push(text);
  }
  const parts = (await Promise.all(built)).filter((t) => t !== '');
  const frame = JSON.stringify(harWith([], comment), null, 2);
  if (parts.length === 0) return `${frame}\n`;
  // The frame's only empty array is the entries': its comment is escaped JSON, and comes after it.
  const at = frame.indexOf('"entries": []') + '"entries": ['.length;
  return `${frame.slice(0, at)}\n${parts.join(',\n')}\n    ${frame.slice(at)}\n`;
}
