// The exchange log (contract/exchange-log.ts) over the data directory's SQLite file. Its reads run on the
// reading threads (reading-threads.ts), each within the read budget and stopped when its caller goes
// away; its writes, and the proxy's group commits, run on the desk's own connection.
import type { ExchangeLog, ExchangeReader } from '../contract/exchange-log';
import type { ExchangeStore } from './exchanges';
import { GroupCommit } from './group-commit';
import { connectionOf, type Store } from './index';
import { sqliteSql } from './shared-sql';
import { detailPlan, detailRowsPlan, listIdsPlan, listPlan, requestOfPlan, timelinePlan } from './exchange-queries';
import { idsOf } from '../rows/id-page';
import { followPlan } from './follow-rows';
import { signedPagePlan } from './signed-rows';
import { reportListPlan, reportPlan } from './reports';
import { callerSignal } from '../../caller-signal';

export function sqliteReader(exchanges: ExchangeStore): ExchangeReader {
  const detailRows: ExchangeReader['detailRows'] = async (ids) => exchanges.detailRows(ids);
  return {
    list: async (q) => exchanges.list(q),
    listIds: async (q) => idsOf(exchanges.list(q)),
    get: async (id) => exchanges.get(id),
    detailRows,
    // SQLite's rows are made off the proxy's thread already: an export takes them as they are.
    exportRows: detailRows,
    timeline: async (depositId, profile) => exchanges.timeline(depositId, profile),
  };
}

/** The data directory's log: one transaction per write, durable when it returns. */
export function sqliteLog(store: Store): ExchangeLog {
  const ledger = store.sandbox;
  const detailRows: ExchangeReader['detailRows'] = async (ids) => store.read(detailRowsPlan(ids), { signal: callerSignal() });
  return {
    // The desk's reads run off the proxy's thread, and stop when their caller goes away (reading-threads.ts).
    list: async (q) => store.read(listPlan(q), { signal: callerSignal() }),
    // The page is made on the reading thread; only its ids come over.
    listIds: async (q) => store.read(listIdsPlan(q), { signal: callerSignal() }),
    get: async (id) => store.read(detailPlan(id), { signal: callerSignal() }),
    detailRows,
    // The export thread reads the rows from the file itself (thread-export-reads.ts); here only where it cannot start.
    exportRows: async (ids) => {
      const source = store.threadRows;
      return source ? { readThere: source, readHere: () => detailRows(ids), underWay: () => store.readElsewhere() } : detailRows(ids);
    },
    timeline: async (depositId, profile) => store.read(timelinePlan(depositId, profile), { signal: callerSignal() }),
    label: null,
    sql: sqliteSql((plan) => store.read(plan, { signal: callerSignal() })),
    books: {
      state: async (book) => ledger.state(book),
      setBalance: async (book, userId, balance) => ledger.setBalanceByHand(book, userId, balance),
      reset: async (book) => ledger.reset(book),
    },
    ready: async () => undefined,
    openCaptureWriter: (operator) =>
      // Each write of the proxy runs inside the group's transaction on the desk's own connection.
      new GroupCommit(connectionOf(store), { rows: store.exchanges, sandbox: (call) => operator.handle(call) }),
    follow: async (filter, afterId, pending) => store.read(followPlan(filter, afterId, pending), { signal: callerSignal() }),
    counts: async () => store.read(store.exchanges.countsPlan(), { signal: callerSignal() }),
    knownCounts: () => store.knownCounts(),
    signedPage: async (filter, afterId, limit) => store.read(signedPagePlan(filter, afterId, limit), { signal: callerSignal() }),
    rejudge: async (judged, reports) => store.immediate(() => reports.forEach((r) => store.exchanges.rejudge(r.id, r.report, judged))),
    prune: (options) => store.prune(options),
    delete: (target, dryRun) => store.deleteExchanges(target, dryRun),
    saved: {
      list: async (profile) => store.savedRequests.list(profile),
      put: async (requests) => store.immediate(() => requests.forEach((r) => store.savedRequests.put(r))),
      remove: async (profile, name) => store.savedRequests.remove(profile, name),
    },
    reports: {
      add: async (report) => store.reports.add(report),
      list: async () => store.read(reportListPlan(), { signal: callerSignal() }),
      get: async (id) => store.read(reportPlan(id), { signal: callerSignal() }),
    },
    requestOf: async (id) => store.read(requestOfPlan(id), { signal: callerSignal() }),
    write: async (write) => store.immediate(() => write(store.exchanges)),
  };
}
