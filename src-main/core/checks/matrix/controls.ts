// A refusal names a cause only when a control confirms it: right after a refused variant (a spaced
// body, escapes, another key order, a tournamentId, a pay the operator says the user cannot afford),
// the same kind of request in its plain form, with fresh ids, for the same user. Accepted: the
// variant's own form was refused. Refused too: the cause is elsewhere (a balance run out, a user
// blocked), and the finding is inconclusive, both answers quoted.
import { describeOutcome, is2xx, is4xx, type CaseStep, type StepOutcome } from '../steps';
import { messageBytes, payBefore, step } from './messages';
import type { Endpoint, MatrixScope } from './types';

export const INSUFFICIENT_BALANCE = 'INSUFFICIENT_BALANCE';

/** A refusal whose error body says the user's balance is too low (section 2.6's INSUFFICIENT_BALANCE). */
export function saysInsufficientBalance(o: Pick<StepOutcome, 'status' | 'body'>): boolean {
  if (!is4xx(o.status)) return false;
  try {
    const errors = (JSON.parse(o.body ?? '') as { errors?: unknown }).errors;
    return Array.isArray(errors) && errors.some((e) => typeof e === 'object' && e !== null && (e as { code?: unknown }).code === INSUFFICIENT_BALANCE);
  } catch {
    return false;
  }
}

/** The plain form of a message of `endpoint`, with fresh ids: a pay, or a pay and its result. */
export function plainControl(endpoint: Endpoint, s: MatrixScope): CaseStep[] {
  const depositId = s.ids.deposit(`control-${endpoint}`);
  const label = `control: a plain ${endpoint === 'pay' ? 'pay' : endpoint}, fresh ids`;
  return [
    ...payBefore(endpoint, s, depositId).map((p) => ({ ...p, label: 'control: its pay' })),
    step(label, endpoint, messageBytes(endpoint, s, depositId), { expect: 'accepted' }),
  ];
}

export type ControlVerdict =
  /** The plain form was accepted: the variant's refusal is its own. */
  | { kind: 'confirmed'; line: string }
  /** The plain pay was refused for the balance too: the user has no money left. */
  | { kind: 'starved'; line: string }
  /** The plain form was refused for another reason: the refusal names no cause. */
  | { kind: 'refused'; line: string };

/** What the control's answers say about the variant's refusal. */
export function controlVerdict(control: readonly StepOutcome[]): ControlVerdict {
  const refused = control.find((o) => !is2xx(o.status));
  if (!refused) {
    const last = control[control.length - 1];
    return { kind: 'confirmed', line: `its control (${last?.label ?? 'the plain form'}) was accepted: ${last ? describeOutcome(last, 80) : 'no answer'}` };
  }
  const line = `${refused.label} answered ${describeOutcome(refused, 80)}`;
  return saysInsufficientBalance(refused) ? { kind: 'starved', line } : { kind: 'refused', line };
}
