// What a profile's callback settings add to the judging of one captured, imported or recorded request:
// its kind under the profile's prefix, the info finding of a callback mounted elsewhere, and the
// amounts rule. The capture judge calls this beside inspect().
import type { AmountsMode, Finding } from '../../shared/model';
import { amountFindings } from './amounts';
import { callbackRoute, prefixFinding, type CallbackRoute } from './callback-path';

export interface CallbackJudging {
  route: CallbackRoute;
  /** Findings to add to the body's own (inspect's): the prefix note and the amounts rule. */
  findings: Finding[];
}

export function judgeUnderProfile(path: string, body: Uint8Array, settings: { prefix: string; amounts: AmountsMode }): CallbackJudging {
  const route = callbackRoute(path, settings.prefix);
  if (route.kind === 'other') return { route, findings: [] };
  const elsewhere = prefixFinding(route, settings.prefix);
  return { route, findings: [...amountFindings(route.kind, body, settings.amounts), ...(elsewhere ? [elsewhere] : [])] };
}
