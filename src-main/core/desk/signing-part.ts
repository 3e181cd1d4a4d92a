import type { DeskApi } from '../../shared/desk-api';
import type { SigningSecretChoice } from '../../shared/model';
import { decodeBase64 } from '../outbound/edit';
import { DeskFailure } from '../result';
import { attempt } from './attempt';
import { checkSignature, sign, type SecretCandidate } from '../signing';
import type { DeskContext } from './context';

export type SigningPart = Pick<DeskApi, 'signBody' | 'verifySignature'>;

export function signingPart(ctx: DeskContext): SigningPart {
  /** The chosen secret first (primary), then every other stored one, for a diagnosis. */
  const candidates = (choice: SigningSecretChoice): SecretCandidate[] => {
    if (choice.profile !== undefined) ctx.profile(choice.profile); // an unknown name is an error, not the active profile
    const stored = ctx.signingCandidates(choice.profile);
    const chosen = choice.secret
      ? [{ profile: choice.secret.label, secret: choice.secret.secret, primary: true }, ...stored.map((c) => ({ ...c, primary: false }))]
      : stored;
    if (!chosen.some((c) => c.primary)) {
      const which = choice.profile ?? ctx.store.profiles.activeName();
      throw new DeskFailure('no-secret', which === null ? 'No profile is active and no secret was given.' : `Profile "${which}" has no signing secret.`);
    }
    return chosen;
  };
  return {
    signBody: (bodyBase64, choice) =>
      attempt(() => {
        const primary = candidates(choice ?? {}).find((c) => c.primary)!;
        return sign(decodeBase64(bodyBase64, 'The body'), primary.secret);
      }),
    verifySignature: (bodyBase64, signature, choice) =>
      attempt(() => {
        if (typeof signature !== 'string') throw new DeskFailure('bad-input', 'The signature must be a string.');
        return checkSignature(decodeBase64(bodyBase64, 'The body'), signature, candidates(choice ?? {}));
      }),
  };
}
