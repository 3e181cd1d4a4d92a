// What a run of checks or edge cases sends with: its target, the secret it signs with, and the
// throw-away secret of its "wrong secret" steps.
import { randomBytes } from 'node:crypto';
import type { ExchangeOrigin, SendOptions } from '../../shared/model';
import type { OutboundDeps } from '../outbound/deps';
import { callbackSettings } from '../protocol/callback-settings';
import { resolveTarget } from '../outbound/target';
import { DeskFailure } from '../result';
import type { ProfileSecrets } from '../store/contract/profiles';
import type { StepEnv } from './steps';

/** The environment of one run: resolves the target (and production confirmation) and the secret first. */
export function stepEnvFor(
  ctx: OutboundDeps,
  options: Pick<SendOptions, 'to' | 'profile' | 'confirmedProduction' | 'customSecret' | 'callbackPrefix' | 'amounts'>,
  origin: ExchangeOrigin,
  tags: string[],
): StepEnv {
  const { profile, base, allowSelfSigned } = resolveTarget(ctx, options);
  const { secret, label } = runSecret(profile, options.customSecret);
  const { prefix, amounts, currency } = callbackSettings(profile, options);
  return {
    base,
    callbackPrefix: prefix,
    amounts,
    currency,
    secret,
    secretLabel: label,
    otherSecret: throwAwaySecret(),
    neighbourSecret: neighbourSecret(ctx, profile, secret),
    allowSelfSigned,
    timeoutMs: ctx.options.outboundTimeoutMs,
    origin,
    tags,
    profile: profile?.name ?? null,
  };
}

function runSecret(profile: ProfileSecrets | null, customSecret: string | undefined): { secret: string; label: string } {
  if (customSecret !== undefined && customSecret !== '') return { secret: customSecret, label: 'custom secret' };
  if (profile?.secret) return { secret: profile.secret, label: profile.name };
  throw new DeskFailure(
    'no-secret',
    profile
      ? `No signing secret: profile "${profile.name}" has none, and the checks must sign their callbacks. Set one in the profile.`
      : 'No signing secret: create a profile with the signing secret, or give one for this run.',
  );
}

/** A secret nobody holds: what a "signed with another secret" step signs with. */
function throwAwaySecret(): string {
  return `wd-not-the-shared-secret-${randomBytes(16).toString('hex')}`;
}

/** The profile's previous secret, else another profile's: a secret an operator may also hold, never the one to sign with. */
function neighbourSecret(ctx: OutboundDeps, profile: ProfileSecrets | null, secret: string): { secret: string; label: string } | null {
  if (profile?.previousSecret && profile.previousSecret !== secret) return { secret: profile.previousSecret, label: `the previous secret of ${profile.name}` };
  for (const other of ctx.store.profiles.list()) {
    if (other.name === profile?.name) continue;
    const found = ctx.profile(other.name)?.secret;
    if (found && found !== secret) return { secret: found, label: `the secret of profile ${other.name}` };
  }
  return null;
}
