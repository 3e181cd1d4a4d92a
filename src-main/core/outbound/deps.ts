import type { StoreAndSecrets } from '../secrets';

/** What sending and recording take: the store, the secret look-ups, and how long an answer may take. */
export interface OutboundDeps extends StoreAndSecrets {
  readonly options: { readonly outboundTimeoutMs: number };
}
