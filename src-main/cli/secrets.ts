import type { Desk } from '../core/desk';
import { UsageError } from './errors';
import { secretFromEnv } from './io';
import type { SecretCandidate } from '../core/signing';

export interface SecretFlags {
  secretEnv?: string;
  profile?: string;
}

/**
 * The signing secret for one call: --secret-env wins over the profile (named, else active).
 * Returns the candidates for a diagnosis too: the chosen secret first, then every other stored one.
 */
export function signingSecrets(flags: SecretFlags, desk: Desk): { secret: string; candidates: SecretCandidate[] } {
  const stored = desk.ctx.signingCandidates(flags.profile);
  if (flags.profile !== undefined) desk.ctx.profile(flags.profile); // throws not-found for an unknown name
  if (flags.secretEnv !== undefined) {
    const secret = secretFromEnv('--secret-env', flags.secretEnv);
    return { secret, candidates: [{ profile: `--secret-env ${flags.secretEnv}`, secret, primary: true }, ...stored.map((c) => ({ ...c, primary: false }))] };
  }
  const primary = stored.find((c) => c.primary);
  if (!primary) {
    const which = flags.profile ?? desk.ctx.store.profiles.activeName();
    throw new UsageError(
      which === null
        ? 'no signing secret: pass --secret-env NAME, or store one with `wager-desk profile set NAME --secret-env VAR`'
        : `no signing secret: profile "${which}" has none; pass --secret-env NAME or set one with \`wager-desk profile set ${which} --secret-env VAR\``,
    );
  }
  return { secret: primary.secret, candidates: stored };
}
