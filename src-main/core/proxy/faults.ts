// What the proxy says about a fault it applied: the finding on the row (every faulted exchange names
// its fault) and the error recorded when the fault means no answer at all.
import type { Finding, ProxyFault } from '../../shared/model';
import { faultNote } from '../../shared/answered-by';
import { jsonAnswer, type ProxyAnswer } from './error-answers';

/** Where the proxy looks up the fault of a callback; one cached check per request when none is set. */
export interface FaultSource {
  take(kind: 'pay' | 'results'): ProxyFault | null;
}

/** The fault in a few words, as the CLI and the rows name it. */
export function describeFault(fault: Pick<ProxyFault, 'id' | 'action'>): string {
  const a = fault.action;
  const what =
    a.type === 'status' ? `answer ${a.status}` : a.type === 'delay' ? `delay ${a.ms} ms` : a.type === 'timeout' ? 'no answer (timeout)' : 'connection reset';
  return `fault ${fault.id}: ${what}`;
}

export function faultFinding(fault: ProxyFault, forwarding: boolean): Finding {
  const a = fault.action;
  const operator = forwarding ? 'the upstream' : 'the sandbox';
  const effect =
    a.type === 'status'
      ? `answered ${a.status} by the proxy; ${operator} was not asked`
      : a.type === 'delay'
        ? forwarding
          ? `held ${a.ms} ms before it was forwarded`
          : `answered after a delay of ${a.ms} ms`
        : a.type === 'timeout'
          ? `never answered: the connection was held until the client gave up; ${operator} was not asked`
          : `the connection was reset (TCP RST) without an answer; ${operator} was not asked`;
  // Its wording is read back to tell who answered (shared/answered-by.ts): built by the same function.
  return { level: 'warning', path: '$', message: faultNote(describeFault(fault), effect) };
}

/** The error column of an exchange a fault left without an answer. */
export function faultError(fault: ProxyFault): string {
  return `${describeFault(fault)} (injected)`;
}

/** The answer of a status fault: its body, else an error in the spec's shape. */
export function faultAnswer(fault: ProxyFault & { action: { type: 'status' } }): ProxyAnswer {
  const a = fault.action;
  return jsonAnswer(a.status, a.body ?? JSON.stringify({ errors: [{ code: 'INJECTED_FAULT', isClientSafe: false }] }));
}
