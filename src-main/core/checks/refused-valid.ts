// A check run whose correctly signed callback (a plain pay, or a body spaced another way) was refused
// 401/403 has found an operator that does not verify the bytes it received. The run then asks why, once:
// the refusal explainer sends that message re-serialized the common ways and names the one accepted.
// Once only, and only after a refusal, because every probe is a real callback to the operator.
import type { CheckResult, RefusalExplanation } from '../../shared/model';
import type { OutboundDeps } from '../outbound/deps';
import { explainRefusedExchange } from '../outbound/explain-exchange';

const isAuthRefusal = (status: number | null | undefined): boolean => status === 401 || status === 403;

/** The first exchange of the run whose valid signature the operator refused with 401 or 403, or null. */
export async function refusedValidExchange(ctx: OutboundDeps, checks: readonly CheckResult[]): Promise<number | null> {
  for (const check of checks) {
    if (check.outcome !== 'fail' || !isAuthRefusal(check.actual.status)) continue;
    for (const id of check.exchangeIds) {
      const x = await ctx.log.get(id);
      if (x && x.signature.verdict === 'valid' && isAuthRefusal(x.response?.status)) return id;
    }
  }
  return null;
}

/** Why the operator refused the run's correctly signed callback; null when it refused none, or the explainer could not run. */
export async function explainRunRefusal(
  ctx: OutboundDeps,
  checks: readonly CheckResult[],
  options: { profile?: string; confirmedProduction?: boolean },
): Promise<RefusalExplanation | null> {
  const id = await refusedValidExchange(ctx, checks);
  if (id === null) return null;
  try {
    return await explainRefusedExchange(ctx, id, options);
  } catch {
    // No secret to sign probes with, a body cut at the size limit: the run's own findings stand without it.
    return null;
  }
}
