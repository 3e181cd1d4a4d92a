// The faults a person sets on the proxy, as a committed callback meets them: a delay before the upstream
// or the sandbox answers, an answer of the fault's own, no answer at all (held), or a connection reset.
// Every one is recorded before it takes effect.
import type { ProxyFault } from '../../shared/model';
import type { Judgment } from '../capture';
import type { CaptureEnv } from './env';
import { faultAnswer, faultError } from './faults';
import type { InboundRecord } from './inbound-record';

/** The fault this callback gets, if any (a fault never applies to what is not a callback). */
export function faultFor(env: CaptureEnv, judgment: Judgment): ProxyFault | null {
  const faults = env.faults;
  if (!faults || (judgment.kind !== 'pay' && judgment.kind !== 'results')) return null;
  try {
    return faults.take(judgment.kind);
  } catch {
    return null;
  }
}

/**
 * Runs `then` once the delay is over; a client that leaves meanwhile ends the exchange, recorded with
 * why (nothing is forwarded or decided for it).
 */
export function afterDelay(x: InboundRecord, ms: number, then: () => void): void {
  let waiting = true;
  const timer = setTimeout(() => {
    waiting = false;
    x.guard(then);
  }, ms);
  x.res.once('close', () => {
    if (!waiting) return;
    waiting = false;
    clearTimeout(timer);
    x.guard(() => x.record({ response: null, error: `the client closed the connection during the fault's ${ms} ms delay` }));
  });
}

/** A fault that replaces the answer: a status of its own, no answer (held), or a reset. Recorded first. */
export function applyFault(x: InboundRecord, fault: ProxyFault): void {
  const a = fault.action;
  if (a.type === 'status') return x.send(faultAnswer({ ...fault, action: a }), null);
  x.state = 'answered';
  x.recordNow(null, faultError(fault), () => (a.type === 'reset' ? reset(x) : hold(x)));
}

/** No answer until the client gives up, or the proxy's request timeout cuts it. */
function hold(x: InboundRecord): void {
  const timer = setTimeout(() => x.res.destroy(), x.env.faultHoldMs ?? 30_000);
  x.res.once('close', () => clearTimeout(timer));
}

/** Cuts the connection with a TCP reset (RST), as a crashed operator would. */
function reset(x: InboundRecord): void {
  const socket = x.req.socket as typeof x.req.socket & { resetAndDestroy?: () => void };
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}
