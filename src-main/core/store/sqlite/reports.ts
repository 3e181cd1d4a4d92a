import type { CheckReport, CheckReportSummary } from '../../../shared/model';
import type { Db } from './open';

/** Conformance reports, kept whole as JSON: they are written once and read back as they were. */
export class ReportStore {
  private readonly addStmt;
  private readonly listStmt;
  private readonly getStmt;

  constructor(db: Db) {
    this.addStmt = db.prepare('INSERT INTO check_reports (at, target, user_id, passed, failed, report) VALUES (?, ?, ?, ?, ?, ?)');
    this.listStmt = db.prepare('SELECT id, at, target, user_id AS userId, passed, failed FROM check_reports ORDER BY id DESC');
    this.getStmt = db.prepare('SELECT report FROM check_reports WHERE id = ?').pluck();
  }

  add(report: Omit<CheckReport, 'id'>): CheckReport {
    const info = this.addStmt.run(report.at, report.target, report.userId, report.passed, report.failed, JSON.stringify(report));
    return { ...report, id: Number(info.lastInsertRowid) };
  }

  list(): CheckReportSummary[] {
    return this.listStmt.all() as CheckReportSummary[];
  }

  get(id: number): CheckReport | null {
    const text = this.getStmt.get(id) as string | undefined;
    return text === undefined ? null : { ...(JSON.parse(text) as Omit<CheckReport, 'id'>), id };
  }
}
