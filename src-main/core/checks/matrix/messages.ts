// The valid message of each endpoint for one deposit, as an object (to be written in any shape),
// and the change it makes to the balance when processed once.
import type { Bodies } from '../bodies';
import { toBytes } from '../../protocol';
import type { CaseStep } from '../steps';
import type { Endpoint, MatrixScope } from './types';

/** The message of `endpoint` for `depositId`. */
export function messageObject(endpoint: Endpoint, s: MatrixScope, depositId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  if (endpoint === 'pay') return { ...s.bodies.payObject({ userId: s.userId, depositId }), ...extra };
  return { ...s.bodies.resultObject(endpoint, { userId: s.userId, depositId, roomId: s.ids.room(endpoint) }), ...extra };
}

/** What processing the message once does to the balance: a pay deducts, WIN, DRAW and REFUND credit, LOSE nothing. */
export function effectOf(endpoint: Endpoint, bodies: Bodies): number {
  if (endpoint === 'pay') return -bodies.stake;
  return endpoint === 'LOSE' ? 0 : bodies.stake;
}

export const pathOf = (endpoint: Endpoint): 'pay' | 'results' => (endpoint === 'pay' ? 'pay' : 'results');

export function step(label: string, endpoint: Endpoint, body: Uint8Array, extra: Partial<CaseStep> = {}): CaseStep {
  return { label, to: pathOf(endpoint), body, ...extra };
}

/** The pay a result needs before it, as a set-up step; none for a pay. */
export function payBefore(endpoint: Endpoint, s: MatrixScope, depositId: string): CaseStep[] {
  if (endpoint === 'pay') return [];
  return [step('pay before it', 'pay', s.bodies.pay({ userId: s.userId, depositId }), { needs: 'accepted' })];
}

/** The message of `endpoint` as compact bytes. */
export function messageBytes(endpoint: Endpoint, s: MatrixScope, depositId: string, extra: Record<string, unknown> = {}): Uint8Array {
  return toBytes(messageObject(endpoint, s, depositId, extra));
}
