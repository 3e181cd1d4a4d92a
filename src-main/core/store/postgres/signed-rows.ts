// Re-verification over a team's PostgreSQL: the rows that carry a verdict and a whole body, a page at a
// time in id order (as SQLite's signed-rows.ts), and one statement that records a page's new verdicts.
import type pg from 'pg';
import type { HeaderList } from '../../../shared/model';
import type { RowFilter } from '../rows/row-filter';
import type { Rejudged, SignedRow } from '../contract/signed-rows';
import type { SignatureReport } from '../../../shared/model';
import { pgFilterWhere } from './exchange-reads';

export async function pgSignedPage(client: pg.Client, filter: RowFilter, afterId: number, limit: number): Promise<SignedRow[]> {
  const { where, params } = pgFilterWhere(filter);
  params.push(afterId, limit);
  const rows = await client.query<{ id: number; req_headers: string; req_body: Buffer; verdict: string | null }>(
    `SELECT id, req_headers, req_body, verdict FROM exchanges
     WHERE ${['verdict IS NOT NULL', 'NOT truncated', ...where, `id > $${params.length - 1}`].join(' AND ')} ORDER BY id LIMIT $${params.length}`,
    params,
  );
  return rows.rows.map((r) => ({ id: r.id, headers: JSON.parse(r.req_headers) as HeaderList, body: r.req_body, verdict: r.verdict }));
}

/** Records a page of new reports in one statement; the first verdict is kept once, as on SQLite. */
export async function pgRejudge(client: pg.Client, judged: Rejudged, reports: ReadonlyArray<{ id: number; report: SignatureReport }>): Promise<void> {
  if (reports.length === 0) return;
  await client.query(
    `UPDATE exchanges AS e SET original_verdict = COALESCE(e.original_verdict, e.verdict), verdict = u.verdict, sig_notes = u.notes,
       diagnosis = u.diagnosis, sig_secret = u.secret, reverified_at = $6, reverified_with = $7
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[]) AS u(id, verdict, notes, diagnosis, secret)
     WHERE e.id = u.id`,
    [
      reports.map((r) => r.id),
      reports.map((r) => r.report.verdict),
      reports.map((r) => JSON.stringify(r.report.notes)),
      reports.map((r) => (r.report.diagnosis ? JSON.stringify(r.report.diagnosis) : null)),
      reports.map((r) => r.report.secret ?? null),
      judged.at,
      JSON.stringify({ profile: judged.profile, fingerprint: judged.fingerprint }),
    ],
  );
}
