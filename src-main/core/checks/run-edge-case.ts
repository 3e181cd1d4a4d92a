// Sends one case of the catalog (origin 'edge-case', tagged with the case and the run) and judges
// the answers with the conformance check's judging: set-up steps that do not get what they need
// block the case, judged steps decide it.
import { DEFAULT_TEST_USER, type EdgeCaseRun, type SendOptions } from '../../shared/model';
import type { OutboundDeps } from '../outbound/deps';
import { defaultStake } from '../protocol/amounts';
import { DeskFailure } from '../result';
import { Bodies } from './bodies';
import { EDGE_CASES, findEdgeCase } from './catalog';
import { judgeSteps, outcomesLine } from './judge';
import { newRunId, RunIds, runIdPrefix } from './run-ids';
import { stepEnvFor } from './secrets';
import { sendStep, type StepOutcome } from './steps';

export async function runEdgeCase(ctx: OutboundDeps, caseId: string, options: SendOptions & { userId?: string }): Promise<EdgeCaseRun> {
  const def = findEdgeCase(caseId);
  if (!def) throw new DeskFailure('not-found', `No edge case "${caseId}". Known: ${EDGE_CASES.map((c) => c.id).join(', ')}.`);
  const runId = newRunId();
  const env = stepEnvFor(ctx, options ?? {}, 'edge-case', [`edge-case:${def.id}`, `edge-run:${runId}`]);
  const userId = options?.userId && options.userId.trim() !== '' ? options.userId : DEFAULT_TEST_USER;
  const steps = def.steps({ userId, ids: new RunIds(runIdPrefix(runId)), bodies: new Bodies(env.amounts, defaultStake(env.amounts), env.currency) });
  const outcomes: StepOutcome[] = [];
  for (const step of steps) outcomes.push(await sendStep(ctx, env, step));

  const answers = outcomesLine(outcomes);
  const base = { caseId: def.id, expected: def.expected, exchangeIds: outcomes.map((o) => o.exchangeId) };
  const verdict = judgeSteps(steps, outcomes);
  switch (verdict.outcome) {
    case 'not-judged':
      return { ...base, pass: null, summary: `Not judged (neither the spec nor the desk can tell the right answer from the status; read it). ${answers}` };
    case 'pass':
      return { ...base, pass: true, outcome: 'pass', summary: `As expected. ${answers}` };
    case 'fail':
      return { ...base, pass: false, outcome: 'fail', summary: `Not as expected: ${verdict.reason}. ${answers}` };
    case 'blocked':
      return { ...base, pass: false, outcome: 'blocked', summary: `Blocked: ${verdict.reason}. ${answers}` };
  }
}
