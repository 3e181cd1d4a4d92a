// The rows a re-verification walks: those that carry a signature verdict and a whole body, selected by
// the list's filters (or ids), in id order a page at a time so that any number of rows fits in bounded
// memory (a plan, read-plan.ts: its filters may walk far, so it runs on a reading thread); and the one
// update that records a new verdict with when and with what it was judged again.
import type { HeaderList, SignatureReport } from '../../../shared/model';
import type { Rejudged, SignedRow } from '../contract/signed-rows';
export type { Rejudged, SignedRow } from '../contract/signed-rows';
import type { Db } from './open';
import { readAll, type ReadPlan } from './read-plan';
import type { RowFilter } from '../rows/row-filter';
import { filterWhere } from './row-where';

export type SignedRowFilter = RowFilter;

/** Only rows a signature applied to, with the whole body it was computed over. */
function whereOf(f: SignedRowFilter): { where: string[]; params: Record<string, unknown> } {
  const { where, params } = filterWhere(f);
  return { where: ['verdict IS NOT NULL', 'truncated = 0', ...where], params };
}

/** Up to `limit` rows after `afterId`, in id order. */
export function* signedPagePlan(filter: SignedRowFilter, afterId: number, limit: number): ReadPlan<SignedRow[]> {
  const { where, params } = whereOf(filter);
  const sql = `SELECT id, req_headers, req_body, verdict FROM exchanges WHERE ${[...where, 'id > @after'].join(' AND ')} ORDER BY id LIMIT @limit`;
  const rows = yield* readAll<{ id: number; req_headers: string; req_body: Buffer; verdict: string | null }>(sql, { ...params, after: afterId, limit });
  return rows.map((r) => ({ id: r.id, headers: JSON.parse(r.req_headers) as HeaderList, body: r.req_body, verdict: r.verdict }));
}

/** The write: a verdict judged again. */
export class SignedRows {
  private readonly updateStmt;
  constructor(db: Db) {
    // The first verdict is kept once: judging a row again twice still says what it was recorded with.
    this.updateStmt = db.prepare(
      `UPDATE exchanges SET original_verdict = COALESCE(original_verdict, verdict), verdict = ?, sig_notes = ?, diagnosis = ?, sig_secret = ?,
       reverified_at = ?, reverified_with = ? WHERE id = ?`,
    );
  }

  /** Records the new report and the re-verification; returns whether the row still exists. */
  update(id: number, report: SignatureReport, judged: Rejudged): boolean {
    const info = this.updateStmt.run(
      report.verdict,
      JSON.stringify(report.notes),
      report.diagnosis ? JSON.stringify(report.diagnosis) : null,
      report.secret ?? null,
      judged.at,
      JSON.stringify({ profile: judged.profile, fingerprint: judged.fingerprint }),
      id,
    );
    return info.changes > 0;
  }
}
