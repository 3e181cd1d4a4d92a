// The clean-up after a check: every deposit whose pay the operator accepted and no result settled is
// refunded, so that a run's cost is what its LOSEs take, not every stake it ever paid. Sent after the
// check's last balance reading, so no delta the check judges includes it.
import { is2xx, type CaseStep, type StepOutcome } from '../steps';
import { messageOf } from './spending';
import { step } from './messages';

interface Sent {
  step: CaseStep;
  outcomes: StepOutcome[];
}

/** The REFUND steps that return the stake of every deposit the sent steps left open. */
export function cleanupSteps(sent: readonly Sent[], refundBody: (userId: string, depositId: string) => Uint8Array): CaseStep[] {
  const open = new Map<string, string>();
  for (const { step: s, outcomes } of sent) {
    if (!outcomes.some((o) => is2xx(o.status))) continue;
    const m = messageOf(s);
    if (m === null) continue;
    if (s.to === 'pay') open.set(m.depositId, m.userId);
    else open.delete(m.depositId);
  }
  return [...open].map(([depositId, userId]) => step('clean-up: REFUND of a deposit the check left open', 'REFUND', refundBody(userId, depositId)));
}
