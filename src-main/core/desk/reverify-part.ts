// Judging stored captures again with the secrets a profile has now (captures taken before a secret was
// set, or across a rotation): the one judge's signature logic over the stored bytes, a page at a time in
// id order, each page in one transaction, each changed row announced by the usual exchange event.
import type { DeskApi } from '../../shared/desk-api';
import type { ReverifyReport, SignatureReport, Verdict } from '../../shared/model';
import { rejudgeSignature } from '../capture';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import type { DeskContext } from './context';
import { refuseOthersCaptures } from './foreign-captures';

/** Rows per transaction: short enough that the proxy's group commit never waits long for the lock. */
const PAGE = 500;
/** Changed ids a report lists at most; the count is always whole. */
const MAX_LISTED = 1000;

export function reverifyPart(ctx: DeskContext): Pick<DeskApi, 'reverify'> {
  const { store, log } = ctx;
  return {
    reverify: (request) =>
      attempt(async () => {
        const name = request?.profile ?? store.profiles.activeName();
        if (name === null || name === undefined) throw new DeskFailure('no-profile', 'No profile is active: create one with the signing secret, or name one.');
        ctx.profile(name); // an unknown name is not-found
        const candidates = ctx.signingCandidates(name);
        if (!candidates.some((c) => c.primary)) {
          throw new DeskFailure('no-secret', `Profile "${name}" has no signing secret: set one first, then verify again.`);
        }
        if (request?.ids && request.ids.length > 0) await refuseOthersCaptures(log.sql, request.ids, name, 'A re-verification judges');
        const report: ReverifyReport = {
          judged: 0,
          changed: 0,
          verdicts: {},
          changedIds: [],
          at: new Date().toISOString(),
          profile: name,
          fingerprint: store.profiles.secretFingerprint(name),
        };
        // Only the profile's own captures: another operator's are never judged with this one's secret.
        const { allProfiles: _spanning, ...query } = request?.query ?? {};
        const filter = { ...query, ...(request?.ids ? { ids: request.ids } : {}), profile: name };
        const judged = { at: report.at, profile: name, fingerprint: report.fingerprint };
        let after = 0;
        for (;;) {
          const rows = await log.signedPage(filter, after, PAGE);
          if (rows.length === 0) break;
          const reports: Array<{ id: number; report: SignatureReport }> = [];
          for (const row of rows) {
            const signature = rejudgeSignature(row, candidates);
            if (signature === null || signature.verdict === null) continue;
            reports.push({ id: row.id, report: signature });
            report.judged++;
            const verdict: Verdict = signature.verdict;
            report.verdicts[verdict] = (report.verdicts[verdict] ?? 0) + 1;
            if (verdict !== row.verdict) {
              report.changed++;
              if (report.changedIds.length < MAX_LISTED) report.changedIds.push(row.id);
            }
          }
          // Each page in one transaction (SQLite) or one statement (PostgreSQL).
          await log.rejudge(judged, reports);
          after = rows[rows.length - 1]!.id;
          if (rows.length < PAGE) break;
        }
        return report;
      }),
  };
}
