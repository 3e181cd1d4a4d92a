// Where a send goes and with which profile: the explicit target wins over the profile's operator
// URL, and a production profile needs an explicit confirmation that names the target.
import type { SendOptions } from '../../shared/model';
import type { SecretLookups } from '../secrets';
import { checkBaseUrl } from '../base-url';
import { DeskFailure } from '../result';
import type { ProfileSecrets } from '../store/contract/profiles';

export interface SendTarget {
  profile: ProfileSecrets | null;
  /** The base URL, without a trailing slash. */
  base: string;
  /**
   * Whether this target may present a self-signed certificate: only when the profile allows it and the
   * target is the profile's own operator URL (same origin). A typed URL elsewhere needs a trusted one.
   */
  allowSelfSigned: boolean;
}

/** Whether two URLs share an origin (false when either is not a URL): where a profile's TLS permission applies. */
export function sameOrigin(a: string, b: string | null): boolean {
  if (b === null) return false;
  try {
    return new URL(a).origin === new URL(b).origin;
  } catch {
    return false;
  }
}

/** base + path: the base's own path prefix is kept (https://op.example/api + /platform/pay). */
export function joinUrl(base: string, pathAndQuery: string): string {
  const trimmed = base.replace(/\/+$/, '');
  if (pathAndQuery === '') return trimmed;
  return `${trimmed}${pathAndQuery.startsWith('/') || pathAndQuery.startsWith('?') ? '' : '/'}${pathAndQuery}`;
}

/** The profile and base URL of a send; throws no-target, bad-input or needs-confirmation. */
export function resolveTarget(ctx: Pick<SecretLookups, 'profile'>, options: Pick<SendOptions, 'to' | 'profile' | 'confirmedProduction'>): SendTarget {
  const profile = ctx.profile(options.profile);
  const raw = options.to ?? profile?.operatorUrl ?? null;
  if (raw === null || raw.trim() === '') {
    throw new DeskFailure(
      'no-target',
      profile
        ? `No target: give a URL to send to, or set the operator URL of profile "${profile.name}".`
        : 'No target: give a URL to send to, or create a profile with an operator URL.',
    );
  }
  const base = checkBaseUrl('The target', raw.trim());
  if (profile?.production && !options.confirmedProduction) {
    throw new DeskFailure(
      'needs-confirmation',
      `Profile "${profile.name}" is marked production: confirm that you mean to send to ${base} (a real operator, with real balances).`,
    );
  }
  return { profile, base, allowSelfSigned: profile?.allowSelfSigned === true && sameOrigin(base, profile.operatorUrl) };
}
