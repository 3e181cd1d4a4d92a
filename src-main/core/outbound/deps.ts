import type { StoreAndSecrets } from '../secrets';
import type { ExchangeLog } from '../store/contract/exchange-log';
import { storedSecrets } from '../redact';
import type { CallbackSettings } from '../protocol/callback-settings';
import type { RecordingDeps } from './record';

/** What sending and recording take: the store, the secret look-ups, and how long an answer may take. */
export interface OutboundDeps extends StoreAndSecrets {
  /** The exchange log, on whichever engine holds it: sends are recorded there, captures read from it. */
  readonly log: ExchangeLog;
  readonly options: { readonly outboundTimeoutMs: number };
}

/**
 * What a send is recorded with: the judge verifies with the profile's secrets, redacts every stored
 * secret, and decides the kind under the profile's callback prefix and amounts (a send posts where
 * its settings say, so it is judged by them too).
 */
export function recordingDeps(ctx: OutboundDeps, profile: string | undefined, settings: CallbackSettings | null): RecordingDeps {
  return {
    // The profile sent as (named, else the active one) is the one the row belongs to.
    profile: profile ?? ctx.store.profiles.activeName(),
    log: ctx.log,
    candidates: ctx.signingCandidates(profile),
    secrets: storedSecrets(ctx),
    ...(settings ? { callbackPrefix: settings.prefix, amounts: settings.amounts } : {}),
  };
}
