// Which exchanges an export holds: everything a query matches, one deposit's timeline, or the steps of
// one conformance report. Always oldest first (report steps in the order they ran), as a HAR reads.
import type { ExchangeQuery, ExchangeSummary, HarQuery } from '../../shared/model';
import { DeskFailure } from '../result';
import { readStoppedMessage } from '../store/rows/read-budget';
import type { ExchangeLog, ExchangeReader } from '../store/contract/exchange-log';

export interface Selection {
  ids: number[];
  /** What was exported, in words, for the HAR's comment and the CLI's summary. */
  description: string;
}

const PAGE = 1000;

function matches(x: ExchangeSummary, q: ExchangeQuery): boolean {
  if (q.direction && q.direction !== 'all' && x.direction !== q.direction) return false;
  if (q.kind && x.kind !== q.kind) return false;
  if (q.result && x.result !== q.result) return false;
  if (q.verdict && x.signature.verdict !== q.verdict) return false;
  if (q.userId && x.userId !== q.userId) return false;
  return true;
}

async function fromReport(log: Pick<ExchangeLog, 'reports'>, reportId: number): Promise<Selection> {
  if (!Number.isInteger(reportId) || reportId < 1) throw new DeskFailure('bad-input', `reportId must be a positive whole number; got ${String(reportId)}.`);
  const report = await log.reports.get(reportId);
  if (!report) throw new DeskFailure('not-found', `No conformance report with id ${reportId}.`);
  const ids = [...new Set(report.checks.flatMap((c) => c.exchangeIds))];
  return { ids, description: `the ${ids.length} exchanges of conformance report ${reportId} (${report.target}, ${report.at})` };
}

async function fromTimeline(log: ExchangeReader, q: ExchangeQuery & { depositId: string }): Promise<Selection> {
  // A deposit's story includes the desk's replays of it, whatever direction: only an explicit filter narrows it.
  const entries = (await log.timeline(q.depositId, q.profile)).entries.filter((x) => matches(x, { ...q, direction: q.direction ?? 'all' }));
  return { ids: entries.map((x) => x.id), description: `the timeline of deposit ${q.depositId}` };
}

/**
 * The most exchanges one HAR holds when the query names no limit: a HAR's text is held whole in memory,
 * and a file of more than this opens in no DevTools anyway.
 */
export const MAX_HAR_EXCHANGES = 10_000;

async function fromList(log: ExchangeReader, q: ExchangeQuery): Promise<Selection> {
  const wanted = q.limit === undefined ? MAX_HAR_EXCHANGES : Math.max(1, Math.floor(q.limit));
  const ids: number[] = [];
  let beforeId = q.beforeId;
  for (;;) {
    // Ids alone: the rows are read again, whole, by the export.
    const page = await log.listIds({ ...q, limit: Math.min(PAGE, wanted - ids.length), ...(beforeId !== undefined ? { beforeId } : {}) });
    // A search stopped by the read budget found only part of its rows (on PostgreSQL none): an export of
    // them would pass for the whole.
    if (page.stoppedAfterSeconds !== undefined) throw new DeskFailure('io-error', readStoppedMessage(page.stoppedAfterSeconds));
    ids.push(...page.ids);
    if (page.nextBeforeId === null || ids.length >= wanted) break;
    beforeId = page.nextBeforeId;
  }
  const what = (q.direction ?? 'inbound') === 'inbound' ? 'captured callbacks' : q.direction === 'outbound' ? 'outbound exchanges' : 'exchanges';
  const capped = q.limit === undefined && ids.length >= MAX_HAR_EXCHANGES;
  return {
    ids: ids.reverse(),
    description: capped ? `the newest ${ids.length} ${what} (at most ${MAX_HAR_EXCHANGES} a file: narrow the filter for older ones)` : `${ids.length} ${what}`,
  };
}

/** `q.profile` (resolved by the desk): one profile's rows and deposits; absent: every profile's. */
export async function selectForHar(log: ExchangeLog, q: Omit<HarQuery, 'allProfiles'>): Promise<Selection> {
  const { reportId, ...query } = q ?? {};
  if (reportId !== undefined && reportId !== null) return fromReport(log, Number(reportId));
  if (query.depositId) return fromTimeline(log, { ...query, depositId: query.depositId });
  return fromList(log, query);
}
