// The x-server-authorization header a send carries, per signature mode, and the verdict stored with
// the outbound row. A custom secret is used for this one send and never stored: only the name
// "custom secret" appears in the report.
import { randomBytes } from 'node:crypto';
import type { Draft, HeaderList, SendOptions, SignatureMode, SignatureReport } from '../../shared/model';
import { DeskFailure } from '../result';
import { checkSignature, invalidSignatureFor, sign, type SecretCandidate } from '../signing';
import type { ProfileSecrets } from '../store/contract/profiles';
import { decodeBase64 } from './edit';
import { applyHeaderEdits, editsSignatureHeader, hasHeaderEdits } from './header-edits';
import { headerValue, SIGNATURE_HEADER, withHeader, withoutHeaders } from './headers';

export const SIGNATURE_MODES: readonly SignatureMode[] = ['resign', 'keep', 'none', 'invalid', 'custom'];

export interface SigningInputs {
  mode: SignatureMode;
  profile: ProfileSecrets | null;
  customSecret?: string | undefined;
  /** The header value the draft or captured request already carries (for 'keep'). */
  keptHeader: string | null;
}

export function isSignatureMode(value: unknown): value is SignatureMode {
  return typeof value === 'string' && (SIGNATURE_MODES as readonly string[]).includes(value);
}

/** The secret a send signs with: the custom one where given, else the profile's. */
function signingSecret(inputs: SigningInputs): string | null {
  if (inputs.customSecret !== undefined && inputs.customSecret !== '') return inputs.customSecret;
  return inputs.profile?.secret ?? null;
}

function noSecret(inputs: SigningInputs): DeskFailure {
  return new DeskFailure(
    'no-secret',
    inputs.profile
      ? `No signing secret: profile "${inputs.profile.name}" has none. Set one in the profile, or sign with a custom secret.`
      : 'No signing secret: create a profile with a secret, or sign with a custom secret.',
  );
}

/** The header value for the body, or null for no header. Throws no-secret or bad-input. */
export function signatureHeaderFor(body: Uint8Array, inputs: SigningInputs): string | null {
  switch (inputs.mode) {
    case 'resign': {
      const secret = signingSecret(inputs);
      if (secret === null) throw noSecret(inputs);
      return sign(body, secret);
    }
    case 'custom':
      if (inputs.customSecret === undefined || inputs.customSecret === '') {
        throw new DeskFailure('bad-input', 'Signature mode "custom" needs a custom secret.');
      }
      return sign(body, inputs.customSecret);
    case 'keep':
      return inputs.keptHeader;
    case 'none':
      return null;
    case 'invalid': {
      // With a secret the wrong value is provably wrong (every digit rotated); without one, random
      // hex matches with probability 2^-256.
      const secret = signingSecret(inputs);
      return secret === null ? randomBytes(32).toString('hex') : invalidSignatureFor(body, secret);
    }
    default:
      throw new DeskFailure('bad-input', `Unknown signature mode "${String(inputs.mode)}"; use one of ${SIGNATURE_MODES.join(', ')}.`);
  }
}

export const MODE_NOTES: Record<SignatureMode, string> = {
  resign: 'Signed over the exact bytes sent.',
  custom: 'Signed over the exact bytes sent with a custom secret (not stored).',
  keep: 'The original x-server-authorization header was sent unchanged.',
  none: 'Sent without an x-server-authorization header, on purpose.',
  invalid: 'Sent with a well-formed signature that cannot match, on purpose.',
};

/** The verdict of the header that was sent, judged with the secret the send was meant to use. */
export function outboundSignatureReport(body: Uint8Array, header: string | null, inputs: SigningInputs, stored: readonly SecretCandidate[]): SignatureReport {
  const custom = inputs.customSecret !== undefined && inputs.customSecret !== '';
  const primary: SecretCandidate[] = custom
    ? [{ profile: 'custom secret', secret: inputs.customSecret as string, primary: true }]
    : inputs.profile?.secret
      ? [{ profile: inputs.profile.name, secret: inputs.profile.secret, primary: true }]
      : [];
  // Without a secret of our own there is nothing to judge with: 'no-secret', not another profile's verdict.
  const others = primary.length > 0 ? stored.filter((c) => c.profile !== inputs.profile?.name || custom).map((c) => ({ ...c, primary: false })) : [];
  const report = checkSignature(body, header, [...primary, ...others]);
  return { ...report, notes: [MODE_NOTES[inputs.mode], ...report.notes] };
}

function signingInputs(options: Pick<SendOptions, 'signature' | 'customSecret'>, profile: ProfileSecrets | null, keptHeader: string | null): SigningInputs {
  const mode = options.signature ?? 'resign';
  if (!isSignatureMode(mode)) throw new DeskFailure('bad-input', `Unknown signature mode "${String(mode)}"; use one of ${SIGNATURE_MODES.join(', ')}.`);
  return { mode, profile, customSecret: options.customSecret, keptHeader };
}

export interface SignedDraft {
  body: Uint8Array;
  inputs: SigningInputs;
  /** The x-server-authorization value sent, or null when none is. */
  header: string | null;
  /** The draft's headers with that signature in place (or without one), the header edits applied. */
  headers: HeaderList;
  /** True when a header edit set or removed the signature header: the mode did not decide it. */
  signatureByHand: boolean;
}

export const BY_HAND_NOTE = 'The x-server-authorization header was set by hand and sent as given (the signature mode did not apply).';

/** A draft as a send of it goes out: its exact bytes and its headers, signed per the options' mode, then edited. */
export function signDraft(
  draft: Pick<Draft, 'bodyBase64' | 'headers'>,
  options: Pick<SendOptions, 'signature' | 'customSecret' | 'headerEdits'>,
  profile: ProfileSecrets | null,
): SignedDraft {
  const body = decodeBase64(draft.bodyBase64, 'The draft body');
  const inputs = signingInputs(options, profile, headerValue(draft.headers, SIGNATURE_HEADER));
  const byHand = editsSignatureHeader(options.headerEdits);
  // A signature the user set by hand needs no secret: the mode is not asked for one.
  const modeHeader = byHand ? null : signatureHeaderFor(body, inputs);
  const signed = modeHeader === null ? withoutHeaders(draft.headers, [SIGNATURE_HEADER]) : withHeader(draft.headers, SIGNATURE_HEADER, modeHeader);
  if (!hasHeaderEdits(options.headerEdits)) return { body, inputs, header: modeHeader, headers: signed, signatureByHand: false };
  // With the signature edited by hand, the draft's own value is the base the edit replaces or drops.
  const base = byHand ? draft.headers.map(([n, v]): [string, string] => [n, v]) : signed;
  const headers = applyHeaderEdits(base, options.headerEdits);
  return { body, inputs, header: headerValue(headers, SIGNATURE_HEADER), headers, signatureByHand: byHand };
}
