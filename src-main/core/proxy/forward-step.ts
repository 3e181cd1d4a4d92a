// Forward mode, once the row is committed: the request goes upstream (after a fault's delay, or not at
// all when a fault answers instead), and the upstream's answer is relayed and recorded.
import type { ProxyFault } from '../../shared/model';
import { afterDelay, applyFault } from './fault-step';
import type { Forwarder } from './forward';
import type { InboundRecord } from './inbound-record';
import { forwardedTarget, wasNormalized, type RequestTarget } from './request-target';

/** Sends the committed request upstream as the fault, if any, allows. */
export function forwardCommitted(x: InboundRecord, forwarder: Forwarder, target: RequestTarget, body: Buffer, fault: ProxyFault | null): void {
  if (!fault) return forward(x, forwarder, target, body);
  const a = fault.action;
  if (a.type === 'delay') return afterDelay(x, a.ms, () => forward(x, forwarder, target, body));
  applyFault(x, fault);
}

/** The request goes upstream and the answer is relayed. */
function forward(x: InboundRecord, forwarder: Forwarder, target: RequestTarget, body: Buffer): void {
  forwarder.forward(
    {
      method: x.req.method ?? 'GET',
      target: forwardedTarget(target),
      normalized: wasNormalized(target),
      rawHeaders: x.req.rawHeaders,
      body,
    },
    x.res,
    { timeoutMs: x.env.upstreamTimeoutMs, maxStoredBytes: x.env.maxBodyBytes },
    (outcome) =>
      x.guard(() => {
        if (outcome.findings.length > 0) x.addFindings(outcome.findings);
        if (outcome.unsent && outcome.response) x.send(outcome.response, outcome.error);
        else if (outcome.release) x.recordThenRelease(outcome, outcome.release);
        else x.record(outcome);
      }),
  );
}
