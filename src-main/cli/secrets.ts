import type { DeskApi } from '../shared/desk-api';
import type { SigningSecretChoice } from '../shared/model';
import { must } from './context';
import { UsageError } from './errors';
import { secretFromEnv } from './io';

export interface SecretFlags {
  secretEnv?: string;
  profile?: string;
}

/**
 * The signing secret for one call: --secret-env wins over the profile (named, else active). Checked before
 * any input is read, so that a call without a secret fails at once instead of waiting for stdin.
 */
export async function signingSecret(flags: SecretFlags, desk: DeskApi): Promise<SigningSecretChoice> {
  const profiles = must(await desk.listProfiles());
  const named = flags.profile !== undefined ? profiles.find((p) => p.name === flags.profile) : undefined;
  if (flags.profile !== undefined && !named) throw new UsageError(`No profile named "${flags.profile}".`);
  const profile = flags.profile !== undefined ? { profile: flags.profile } : {};
  if (flags.secretEnv !== undefined) {
    return { ...profile, secret: { label: `--secret-env ${flags.secretEnv}`, secret: secretFromEnv('--secret-env', flags.secretEnv) } };
  }
  const chosen = named ?? profiles.find((p) => p.active);
  if (!chosen?.secret.set) {
    throw new UsageError(
      chosen === undefined
        ? 'no signing secret: pass --secret-env NAME, or store one with `wager-desk profile set NAME --secret-env VAR`'
        : `no signing secret: profile "${chosen.name}" has none; pass --secret-env NAME or set one with \`wager-desk profile set ${chosen.name} --secret-env VAR\``,
    );
  }
  return profile;
}
