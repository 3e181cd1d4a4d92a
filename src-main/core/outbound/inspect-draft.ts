// What the composer shows under a draft: its body judged against the interface, by the callback its
// path names under the active profile's prefix, with the profile's amounts rule.
import type { Draft, Finding, SendOptions } from '../../shared/model';
import type { SecretLookups } from '../secrets';
import { inspect } from '../protocol';
import { judgeUnderProfile } from '../protocol/callback-judging';
import { callbackSettings } from '../protocol/callback-settings';
import { checkDraft } from './dispatch';
import { decodeBase64 } from './edit';

export function inspectDraft(ctx: Pick<SecretLookups, 'profile'>, draft: Draft): Finding[] {
  checkDraft(draft);
  const settings = callbackSettings(ctx.profile());
  const body = decodeBase64(draft.bodyBase64, 'The draft body');
  const { route, findings } = judgeUnderProfile(draft.path, body, settings);
  if (route.kind === 'other') {
    return [
      {
        level: 'info',
        path: '$',
        message: `The path is neither ${settings.prefix}/pay nor ${settings.prefix}/results, so the body is not checked against the interface.`,
      },
    ];
  }
  // Errors first, as inspect() orders its own.
  const all = [...findings, ...inspect(route.kind, body)];
  return [...all.filter((f) => f.level === 'error'), ...all.filter((f) => f.level === 'warning'), ...all.filter((f) => f.level === 'info')];
}

/** The template settings of a profile (default: the active one), with a run's own prefix and amounts winning. */
export function templateSettings(ctx: Pick<SecretLookups, 'profile'>, options: Pick<SendOptions, 'profile' | 'callbackPrefix' | 'amounts'> = {}) {
  return callbackSettings(ctx.profile(options.profile), options);
}
