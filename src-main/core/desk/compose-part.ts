import type { DeskApi } from '../../shared/desk-api';
import { listEdgeCases, reportJson, reportMarkdown, runConformanceCheck, runEdgeCase } from '../checks';
import { diffExchangeDetails, dispatchDraft, draftFollowUp, draftFromExchange, draftTemplate, previewSignature, replay } from '../outbound';
import { inspectDraft, templateSettings } from '../outbound/inspect-draft';
import { attempt, DeskFailure } from '../result';
import type { DeskContext } from './context';

export type ComposePart = Pick<
  DeskApi,
  | 'diffExchanges'
  | 'draftFromExchange'
  | 'draftFollowUp'
  | 'draftTemplate'
  | 'previewSignature'
  | 'inspectDraft'
  | 'replay'
  | 'send'
  | 'listEdgeCases'
  | 'runEdgeCase'
  | 'runCheck'
  | 'listCheckReports'
  | 'getCheckReport'
  | 'exportCheckReport'
>;

export function composePart(ctx: DeskContext): ComposePart {
  const exchange = (id: number) => {
    const found = ctx.store.exchanges.get(Number(id));
    if (!found) throw new DeskFailure('not-found', `No exchange with id ${id}.`);
    return found;
  };
  const report = (id: number) => {
    const found = ctx.store.reports.get(Number(id));
    if (!found) throw new DeskFailure('not-found', `No check report with id ${id}.`);
    return found;
  };
  return {
    diffExchanges: (beforeId, afterId) => attempt(() => diffExchangeDetails(exchange(beforeId), exchange(afterId))),
    draftFromExchange: (id) => attempt(() => draftFromExchange(ctx, Number(id))),
    draftFollowUp: (payId, result) => attempt(() => draftFollowUp(ctx, Number(payId), result)),
    draftTemplate: (kind, userId, options) => attempt(() => draftTemplate(kind, userId, templateSettings(ctx, options ?? {}))),
    previewSignature: (draft, mode, options) => attempt(() => previewSignature(ctx, draft, { ...options, signature: mode })),
    inspectDraft: (draft) => attempt(() => inspectDraft(ctx, draft)),
    replay: (request) => attempt(() => replay(ctx, request)),
    send: (request) => attempt(() => dispatchDraft(ctx, request?.draft, { ...request, origin: 'send' })),
    listEdgeCases: () => attempt(() => listEdgeCases()),
    runEdgeCase: (caseId, options) => attempt(() => runEdgeCase(ctx, caseId, options, ctx.balanceObserver(options?.profile))),
    runCheck: (options) => attempt(() => runConformanceCheck(ctx, options, ctx.balanceObserver(options?.profile))),
    listCheckReports: () => attempt(() => ctx.store.reports.list()),
    getCheckReport: (id) => attempt(() => report(id)),
    exportCheckReport: (id, format) =>
      attempt(() => {
        if (format === 'json') return reportJson(report(id));
        if (format === 'markdown') return reportMarkdown(report(id), (x) => ctx.store.exchanges.get(x));
        throw new DeskFailure('bad-input', `A report is exported as json or markdown, not "${String(format)}".`);
      }),
  };
}
