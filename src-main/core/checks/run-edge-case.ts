// Sends one case of the catalog (origin 'edge-case', tagged with the case and the run) and judges
// the answers where the spec decides them.
import type { EdgeCaseRun, SendOptions } from '../../shared/model';
import type { DeskContext } from '../desk/context';
import { resolveTarget } from '../outbound/target';
import { DeskFailure } from '../result';
import { EDGE_CASES, findEdgeCase } from './catalog';
import { outcomesLine } from './judge';
import { newRunId, RunIds } from './run-ids';
import { runSecret, throwAwaySecret } from './secrets';
import { sendStep, type StepOutcome } from './steps';

export const DEFAULT_EDGE_USER = 'wd-test-user';

export async function runEdgeCase(ctx: DeskContext, caseId: string, options: SendOptions & { userId?: string }): Promise<EdgeCaseRun> {
  const def = findEdgeCase(caseId);
  if (!def) throw new DeskFailure('not-found', `No edge case "${caseId}". Known: ${EDGE_CASES.map((c) => c.id).join(', ')}.`);
  const { profile, base } = resolveTarget(ctx, options ?? {});
  const { secret, label } = runSecret(profile, options?.customSecret);
  const runId = newRunId();
  const userId = options?.userId && options.userId.trim() !== '' ? options.userId : DEFAULT_EDGE_USER;
  const env = {
    base,
    secret,
    secretLabel: label,
    otherSecret: throwAwaySecret(),
    allowSelfSigned: profile?.allowSelfSigned ?? false,
    timeoutMs: ctx.options.outboundTimeoutMs,
    origin: 'edge-case' as const,
    tags: [`edge-case:${def.id}`, `edge-run:${runId}`],
  };
  const outcomes: StepOutcome[] = [];
  for (const step of def.steps({ userId, ids: new RunIds(`wd-edge-${runId}-`) })) outcomes.push(await sendStep(ctx, env, step));

  const answers = outcomesLine(outcomes);
  if (!def.judge) {
    return { caseId: def.id, pass: null, expected: def.expected, exchangeIds: outcomes.map((o) => o.exchangeId), summary: `Not judged (the spec does not decide this case). ${answers}` };
  }
  const verdict = def.judge(outcomes);
  return {
    caseId: def.id,
    pass: verdict.pass,
    expected: def.expected,
    exchangeIds: outcomes.map((o) => o.exchangeId),
    summary: verdict.pass ? `As expected. ${answers}` : `Not as expected: ${verdict.reason}. ${answers}`,
  };
}
