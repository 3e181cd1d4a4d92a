import type { DeskApi } from '../../shared/desk-api';
import type { CheckReport } from '../../shared/model';
import { listEdgeCases, reportHtml, reportJson, reportJUnit, reportMarkdown, runConformanceCheck, runEdgeCase } from '../checks';
import { diffExchangeDetails, dispatchDraft, draftFollowUp, draftFromExchange, draftTemplate, previewSignature, replay } from '../outbound';
import { inspectDraft, templateSettings } from '../outbound/inspect-draft';
import { storedSecrets } from '../redact';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
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
  const exchange = async (id: number) => {
    const found = await ctx.log.get(Number(id));
    if (!found) throw new DeskFailure('not-found', `No exchange with id ${id}.`);
    return found;
  };
  const report = async (id: number) => {
    const found = await ctx.log.reports.get(Number(id));
    if (!found) throw new DeskFailure('not-found', `No check report with id ${id}.`);
    return found;
  };
  /** The report's steps' exchanges, read first: the markdown is written from them in one go. */
  const reportExchanges = async (r: CheckReport) => {
    const ids = [...new Set(r.checks.flatMap((c) => c.exchangeIds))];
    const found = await Promise.all(ids.map((id) => ctx.log.get(id)));
    return new Map(ids.map((id, i) => [id, found[i] ?? null]));
  };
  return {
    diffExchanges: (beforeId, afterId) => attempt(async () => diffExchangeDetails(await exchange(beforeId), await exchange(afterId))),
    draftFromExchange: (id) => attempt(() => draftFromExchange(ctx, Number(id))),
    draftFollowUp: (payId, result) => attempt(() => draftFollowUp(ctx, Number(payId), result)),
    draftTemplate: (kind, userId, options) => attempt(() => draftTemplate(kind, userId, templateSettings(ctx, options ?? {}))),
    previewSignature: (draft, mode, options) => attempt(() => previewSignature(ctx, draft, { ...options, signature: mode })),
    inspectDraft: (draft) => attempt(() => inspectDraft(ctx, draft)),
    replay: (request) => attempt(() => replay(ctx, request)),
    send: (request) => attempt(() => dispatchDraft(ctx, request?.draft, { ...request, origin: 'send' })),
    listEdgeCases: () => attempt(() => listEdgeCases()),
    runEdgeCase: (caseId, options) => attempt(() => runEdgeCase(ctx, caseId, options, ctx.balanceObserver(options?.profile))),
    runCheck: (options) =>
      attempt(() =>
        runConformanceCheck(
          ctx,
          options,
          ctx.balanceObserver(options?.profile, {
            ...(options?.to !== undefined ? { to: options.to } : {}),
            ...(options?.balanceUrl !== undefined ? { balanceUrl: options.balanceUrl } : {}),
            ...(options?.balancePath !== undefined ? { balancePath: options.balancePath } : {}),
          }),
        ),
      ),
    listCheckReports: () => attempt(() => ctx.log.reports.list()),
    getCheckReport: (id) => attempt(() => report(id)),
    exportCheckReport: (id, format) =>
      attempt(async () => {
        if (format === 'json') return reportJson(await report(id));
        if (format === 'markdown') {
          const r = await report(id);
          const exchanges = await reportExchanges(r);
          return reportMarkdown(r, (x) => exchanges.get(x) ?? null);
        }
        if (format === 'junit' || format === 'html') {
          const r = await report(id);
          const exchanges = await reportExchanges(r);
          const write = format === 'junit' ? reportJUnit : reportHtml;
          return write(r, (x) => exchanges.get(x) ?? null, storedSecrets(ctx));
        }
        throw new DeskFailure('bad-input', `A report is exported as json, markdown, junit or html, not "${String(format)}".`);
      }),
  };
}
