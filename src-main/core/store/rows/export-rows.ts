// The rows an export reads, in the form the engine hands them over: detail rows, one JSON text a row, or
// where the export thread reads them itself. SQLite's rows come from its reading threads, already off the
// proxy's thread. A PostgreSQL driver parses every column of every row where the query was made, and a HAR
// of hundreds of rows is tens of thousands of columns: on the proxy's thread that parsing, the strings'
// garbage and the waits of the thread that wakes the server all fall on the callbacks. So PostgreSQL's
// rows are read by the export thread, on a connection of its own (RowsReadElsewhere), as one JSON text a
// row (detailRowOfJson makes the row the driver would have made); the proxy's thread reads them itself,
// through `readHere`, only where no export thread can start.
import type { DetailRow, DetailRows } from './exchange-rows';

/** A row as JSON text: its columns as JSON gives them, the flag as 0/1, each blob as its bytes' hex. */
export interface RowText {
  id: number;
  json: string;
}

export type ExportRows = DetailRows | { texts: RowText[]; derived: DetailRows['derived'] };

/**
 * Where a thread of this process reads the rows on its own connection: a team's PostgreSQL, by URL (its
 * password included: the value stays inside the process) and the read budget of its statements.
 */
export interface ThreadRowSource {
  postgres: { url: string; statementTimeoutMs: number };
}

/** Rows not read yet: the export thread reads them from `readThere`; `readHere` reads them on the calling thread instead. */
export interface RowsReadElsewhere {
  readThere: ThreadRowSource;
  readHere(): Promise<ExportRows>;
}

/** What an export's read gives: the rows, or where to read them. */
export type ExportRead = ExportRows | RowsReadElsewhere;

export const readElsewhere = (found: ExportRead): found is RowsReadElsewhere => 'readThere' in found;

/** The detail row's blob columns, sent as their bytes' hex, and its double columns, where JSON cannot hold every value. */
const BLOBS = ['req_body', 'res_body'] as const satisfies ReadonlyArray<keyof DetailRow>;
const REALS = ['amount', 'duration_ms'] as const satisfies ReadonlyArray<keyof DetailRow>;

/** The detail row of a row's JSON text. */
export function detailRowOfJson(json: string): DetailRow {
  const row = JSON.parse(json) as Record<string, unknown>;
  for (const c of BLOBS) {
    const hex = row[c];
    if (typeof hex === 'string') row[c] = Buffer.from(hex, 'hex');
  }
  // JSON has no NaN or infinities: a double column gives them as the strings "NaN", "Infinity", "-Infinity".
  for (const c of REALS) {
    const v = row[c];
    if (typeof v === 'string') row[c] = Number(v);
  }
  return row as unknown as DetailRow;
}

/** The rows as detail rows, whichever form they came in. */
export function detailRowsOf(found: ExportRows): DetailRows {
  return 'texts' in found ? { rows: found.texts.map((t) => detailRowOfJson(t.json)), derived: found.derived } : found;
}

/** Whether the read found no row (rows read elsewhere are not known yet: not empty). */
export function foundNone(found: ExportRead): boolean {
  if (readElsewhere(found)) return false;
  return ('texts' in found ? found.texts.length : found.rows.length) === 0;
}
