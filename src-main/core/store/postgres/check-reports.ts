// Conformance reports in a team's PostgreSQL, beside the exchanges their steps name: kept whole as JSON
// text, written once and read back as they were (as in SQLite's check_reports).
import type pg from 'pg';
import type { CheckReport, CheckReportSummary } from '../../../shared/model';
import type { CheckReports } from '../contract/exchange-log';
import { pgText } from './pg-text';

export function pgCheckReports(run: <T>(fn: (client: pg.Client) => Promise<T>) => Promise<T>): CheckReports {
  return {
    add: (report) =>
      run(async (c) => {
        const added = await c.query<{ id: number }>(
          'INSERT INTO check_reports (at, target, user_id, passed, failed, report) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id',
          [report.at, pgText(report.target), pgText(report.userId), report.passed, report.failed, pgText(JSON.stringify(report))],
        );
        return { ...report, id: added.rows[0]!.id };
      }),
    list: () =>
      run(
        async (c) => (await c.query<CheckReportSummary>('SELECT id, at, target, user_id AS "userId", passed, failed FROM check_reports ORDER BY id DESC')).rows,
      ),
    get: (id) =>
      run(async (c) => {
        const found = await c.query<{ report: string }>('SELECT report FROM check_reports WHERE id = $1', [id]);
        const text = found.rows[0]?.report;
        return text === undefined ? null : { ...(JSON.parse(text) as Omit<CheckReport, 'id'>), id };
      }),
  };
}
