// The rows an export reads, in the form the engine hands them over: detail rows, or one JSON text a row.
// SQLite's rows come from its reading threads, already off the proxy's thread. A PostgreSQL driver parses
// every column of every row where the query was made, the proxy's thread, and a HAR of hundreds of rows
// is tens of thousands of columns; as one text a row, the proxy's thread decodes one string a row and the
// export thread makes the row of it (detailRowOfJson), the same row the driver would have made.
import type { DetailRow, DetailRows } from './exchange-rows';

/** A row as JSON text: its columns as JSON gives them, the flag as 0/1, each blob as its bytes' hex. */
export interface RowText {
  id: number;
  json: string;
}

export type ExportRows = DetailRows | { texts: RowText[]; derived: DetailRows['derived'] };

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

/** How many rows were found. */
export function exportRowCount(found: ExportRows): number {
  return 'texts' in found ? found.texts.length : found.rows.length;
}
