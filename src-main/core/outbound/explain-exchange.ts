// The refusal explainer applied to a recorded exchange: a forwarded capture or a send that the operator
// refused although its signature is valid with the profile's secret. The probes go where the refused
// message went (the profile's upstream for a capture, the recorded target for a send) and are recorded
// as exchanges derived from it.
import type { RefusalExplanation } from '../../shared/model';
import { DeskFailure } from '../result';
import { callbackSettings } from '../protocol/callback-settings';
import type { OutboundDeps } from './deps';
import { capturedDraft } from './drafts';
import { decodeBase64 } from './edit';
import { explainRefusal, recordingProbeSender } from './refusal-probe';
import { joinUrl, sameOrigin } from './target';

export interface ExplainOptions {
  confirmedProduction?: boolean;
  /** The profile whose secret signs the probes (default: the exchange's own, else the active one). */
  profile?: string;
}

const is4xx = (status: number | null): boolean => status !== null && status >= 400 && status < 500;

/** Explains why the operator refused exchange `id`; throws bad-input when it was not a refusal of a valid signature. */
export async function explainRefusedExchange(ctx: OutboundDeps, id: number, options: ExplainOptions = {}): Promise<RefusalExplanation> {
  const detail = await ctx.log.get(Number(id));
  if (!detail) throw new DeskFailure('not-found', `No exchange with id ${id}.`);
  const status = detail.response?.status ?? null;
  if (!is4xx(status)) {
    throw new DeskFailure(
      'bad-input',
      `Exchange ${id} was not refused (${status === null ? 'no answer' : `answered ${status}`}): only a 4XX answer of the operator is explained.`,
    );
  }
  if (detail.signature.verdict !== 'valid') {
    throw new DeskFailure(
      'bad-input',
      `The signature of exchange ${id} is ${detail.signature.verdict ?? 'not judged'}, not valid: the operator was right to refuse it. Its signature diagnosis explains the platform's side.`,
    );
  }
  const profile = ctx.profile(options.profile ?? detail.profile ?? undefined);
  if (!profile?.secret) {
    throw new DeskFailure(
      'no-secret',
      profile ? `Profile "${profile.name}" has no signing secret to sign the probes with.` : 'No profile: the probes need a signing secret.',
    );
  }
  const { draft, truncated } = await capturedDraft(ctx, detail.id);
  if (truncated) throw new DeskFailure('bad-input', `The body of exchange ${id} was cut at the size limit: it cannot be re-serialized.`);
  let url: string;
  if (detail.direction === 'outbound' && detail.target) url = detail.target;
  else if (profile.upstream) url = joinUrl(profile.upstream, draft.path);
  else {
    throw new DeskFailure(
      'no-target',
      `Exchange ${id} was captured, and profile "${profile.name}" names no upstream: the desk does not know which operator refused it (set the profile's upstream).`,
    );
  }
  if (profile.production && !options.confirmedProduction) {
    throw new DeskFailure(
      'needs-confirmation',
      `Profile "${profile.name}" is marked production: confirm that you mean to send the refused message re-serialized to ${new URL(url).origin} (a real operator: an accepted pay is a real payment).`,
    );
  }
  const send = recordingProbeSender(ctx, detail.id, {
    url,
    method: draft.method,
    profile: profile.name,
    settings: callbackSettings(profile),
    secretLabel: profile.name,
    secret: profile.secret,
    allowSelfSigned: profile.allowSelfSigned && sameOrigin(url, profile.operatorUrl),
    timeoutMs: ctx.options.outboundTimeoutMs,
    origin: 'replay',
    tags: [],
  });
  return explainRefusal({ id: detail.id, headers: draft.headers, body: decodeBase64(draft.bodyBase64, 'The captured body') }, profile.secret, send);
}
