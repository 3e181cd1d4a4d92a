// Conformance reports, kept whole as JSON: they are written once and read back as they were. The reads
// are plans (read-plan.ts), run on a reading thread: a report can be megabytes of JSON.
import type { CheckReport, CheckReportSummary } from '../../../shared/model';
import type { Db } from './open';
import { readAll, readValue, type ReadPlan } from './read-plan';

const LIST_SQL = 'SELECT id, at, target, user_id AS userId, passed, failed FROM check_reports ORDER BY id DESC';
const GET_SQL = 'SELECT report FROM check_reports WHERE id = ?';

/** Every report's summary, newest first. */
export function reportListPlan(): ReadPlan<CheckReportSummary[]> {
  return readAll<CheckReportSummary>(LIST_SQL);
}

/** One report whole, or null. */
export function* reportPlan(id: number): ReadPlan<CheckReport | null> {
  const text = yield* readValue<string | undefined>(GET_SQL, [id]);
  return text === undefined ? null : { ...(JSON.parse(text) as Omit<CheckReport, 'id'>), id };
}

/** The write: a report added. */
export class ReportStore {
  private readonly addStmt;

  constructor(db: Db) {
    this.addStmt = db.prepare('INSERT INTO check_reports (at, target, user_id, passed, failed, report) VALUES (?, ?, ?, ?, ?, ?)');
  }

  add(report: Omit<CheckReport, 'id'>): CheckReport {
    const info = this.addStmt.run(report.at, report.target, report.userId, report.passed, report.failed, JSON.stringify(report));
    return { ...report, id: Number(info.lastInsertRowid) };
  }
}
