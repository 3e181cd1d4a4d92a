import type { CheckReport, CheckReportSummary } from '../../shared/model';
import type { Db } from './open';

/** Conformance reports, kept whole as JSON: they are written once and read back as they were. */
export class ReportStore {
  constructor(private readonly db: Db) {}

  add(report: Omit<CheckReport, 'id'>): CheckReport {
    const info = this.db
      .prepare('INSERT INTO check_reports (at, target, user_id, passed, failed, report) VALUES (?, ?, ?, ?, ?, ?)')
      .run(report.at, report.target, report.userId, report.passed, report.failed, JSON.stringify(report));
    return { ...report, id: Number(info.lastInsertRowid) };
  }

  list(): CheckReportSummary[] {
    return this.db
      .prepare('SELECT id, at, target, user_id AS userId, passed, failed FROM check_reports ORDER BY id DESC')
      .all() as CheckReportSummary[];
  }

  get(id: number): CheckReport | null {
    const text = this.db.prepare('SELECT report FROM check_reports WHERE id = ?').pluck().get(id) as string | undefined;
    return text === undefined ? null : { ...(JSON.parse(text) as Omit<CheckReport, 'id'>), id };
  }
}
