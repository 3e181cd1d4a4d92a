// Sends one case of the catalog (origin 'edge-case', tagged with the case and the run) and judges
// the answers where the spec decides them.
import { DEFAULT_TEST_USER, type EdgeCaseRun, type SendOptions } from '../../shared/model';
import type { OutboundDeps } from '../outbound/deps';
import { DeskFailure } from '../result';
import { EDGE_CASES, findEdgeCase } from './catalog';
import { outcomesLine } from './judge';
import { newRunId, RunIds } from './run-ids';
import { stepEnvFor } from './secrets';
import { sendStep, type StepOutcome } from './steps';


export async function runEdgeCase(ctx: OutboundDeps, caseId: string, options: SendOptions & { userId?: string }): Promise<EdgeCaseRun> {
  const def = findEdgeCase(caseId);
  if (!def) throw new DeskFailure('not-found', `No edge case "${caseId}". Known: ${EDGE_CASES.map((c) => c.id).join(', ')}.`);
  const runId = newRunId();
  const env = stepEnvFor(ctx, options ?? {}, 'edge-case', [`edge-case:${def.id}`, `edge-run:${runId}`]);
  const userId = options?.userId && options.userId.trim() !== '' ? options.userId : DEFAULT_TEST_USER;
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
