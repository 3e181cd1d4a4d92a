// A captured request's own bytes and headers, for a replay or a draft: only the columns that make it.
import type pg from 'pg';
import { REQUEST_COLUMNS, toStoredRequest, type DetailRow, type StoredRequest } from '../rows/exchange-rows';

export async function pgRequestOf(client: pg.Client, id: number): Promise<StoredRequest | null> {
  const columns = REQUEST_COLUMNS.replace('truncated', 'truncated::int AS truncated');
  const found = await client.query<DetailRow>(`SELECT ${columns} FROM exchanges WHERE id = $1`, [id]);
  const row = found.rows[0];
  return row ? toStoredRequest(row) : null;
}
