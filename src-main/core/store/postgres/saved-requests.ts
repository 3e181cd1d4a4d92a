// The composer's saved requests in a team's PostgreSQL, as in SQLite's saved_requests: per profile, the
// exact body bytes, the headers without the signature header. Beside the team's profiles they belong to,
// so a teammate sends the same saved request.
import type pg from 'pg';
import type { SavedRequest } from '../../../shared/model';
import type { SavedRequests } from '../contract/exchange-log';
import { toSaved, type SavedRequestRow } from '../rows/saved-request-row';
import { pgText } from './pg-text';

// One statement (one array per column): all or nothing without a transaction on the shared connection.
const PUT = `INSERT INTO saved_requests (profile, name, method, path, headers, body, signature, saved_at)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bytea[], $7::text[], $8::text[])
  ON CONFLICT (profile, name) DO UPDATE SET method = EXCLUDED.method, path = EXCLUDED.path, headers = EXCLUDED.headers,
    body = EXCLUDED.body, signature = EXCLUDED.signature, saved_at = EXCLUDED.saved_at`;

/** Of two requests with one profile and name, the later (one statement may not write a row twice). */
function lastOfEach(requests: readonly SavedRequest[]): SavedRequest[] {
  return [...new Map(requests.map((r) => [JSON.stringify([r.profile, r.name]), r])).values()];
}

export function pgSavedRequests(run: <T>(fn: (client: pg.Client) => Promise<T>) => Promise<T>): SavedRequests {
  return {
    list: (profile) =>
      run(async (c) => (await c.query<SavedRequestRow>('SELECT * FROM saved_requests WHERE profile = $1 ORDER BY name', [profile])).rows.map(toSaved)),
    put: (requests) =>
      run(async (c) => {
        const rows = lastOfEach(requests);
        if (rows.length === 0) return;
        const text = (pick: (r: SavedRequest) => string): string[] => rows.map((r) => pgText(pick(r)));
        await c.query(PUT, [
          text((r) => r.profile),
          text((r) => r.name),
          text((r) => r.method),
          text((r) => r.path),
          text((r) => JSON.stringify(r.headers)),
          rows.map((r) => Buffer.from(r.bodyBase64, 'base64')),
          text((r) => r.signature),
          text((r) => r.savedAt),
        ]);
      }),
    remove: (profile, name) =>
      run(async (c) => ((await c.query('DELETE FROM saved_requests WHERE profile = $1 AND name = $2', [profile, name])).rowCount ?? 0) > 0),
  };
}
