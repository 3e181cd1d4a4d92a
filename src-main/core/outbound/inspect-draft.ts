// What the composer shows under a draft: its body judged against the interface, by the callback its
// path names under the active profile's prefix, with the profile's amounts rule.
import type { Draft, Finding, SendOptions } from '../../shared/model';
import type { DeskContext } from '../desk/context';
import { inspect } from '../protocol';
import { amountFindings } from '../protocol/amounts';
import { callbackRoute, prefixFinding } from '../protocol/callback-path';
import { callbackSettings } from './callback-settings';
import { checkDraft } from './dispatch';
import { decodeBase64 } from './edit';

export function inspectDraft(ctx: DeskContext, draft: Draft): Finding[] {
  checkDraft(draft);
  const { prefix, amounts } = callbackSettings(ctx.profile());
  const route = callbackRoute(draft.path, prefix);
  if (route.kind === 'other') {
    return [{ level: 'info', path: '$', message: `The path is neither ${prefix}/pay nor ${prefix}/results, so the body is not checked against the interface.` }];
  }
  const body = decodeBase64(draft.bodyBase64, 'The draft body');
  const elsewhere = prefixFinding(route, prefix);
  return [...amountFindings(route.kind, body, amounts), ...inspect(route.kind, body), ...(elsewhere ? [elsewhere] : [])];
}

/** The template settings of a profile (default: the active one), with a run's own prefix and amounts winning. */
export function templateSettings(ctx: DeskContext, options: Pick<SendOptions, 'profile' | 'callbackPrefix' | 'amounts'> = {}) {
  return callbackSettings(ctx.profile(options.profile), options);
}
