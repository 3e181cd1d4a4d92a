// Sending a draft and replaying a capture: the two ways staff send a callback by hand. Both resolve
// the target and profile, apply the signature mode to the exact bytes that leave, and record the
// send as an outbound exchange linked to its source.
import type { Draft, ExchangeDetail, ExchangeOrigin, ReplayRequest, SendOptions } from '../../shared/model';
import { recordingDeps, type OutboundDeps } from './deps';
import { DeskFailure } from '../result';
import { callbackSettings } from '../protocol/callback-settings';
import { capturedDraft, draftFollowUp } from './drafts';
import { applyEdits, decodeBase64, hasEdits } from './edit';
import { sendAndRecord } from './record';
import { BY_HAND_NOTE, outboundSignatureReport, signDraft } from './signature-mode';
import { joinUrl, resolveTarget } from './target';

export interface DispatchOptions extends SendOptions {
  origin: ExchangeOrigin;
  tags?: string[];
}

/** Refuses a draft that is not a plain request (it may come over IPC from anywhere). */
export function checkDraft(draft: Draft): void {
  if (typeof draft !== 'object' || draft === null) throw new DeskFailure('bad-input', 'A draft is required.');
  if (typeof draft.method !== 'string' || !/^[A-Za-z]+$/.test(draft.method)) throw new DeskFailure('bad-input', 'The draft needs an HTTP method (POST).');
  if (typeof draft.path !== 'string' || !draft.path.startsWith('/'))
    throw new DeskFailure('bad-input', 'The draft path must start with "/" (like /platform/pay).');
  if (!Array.isArray(draft.headers) || !draft.headers.every((h) => Array.isArray(h) && typeof h[0] === 'string' && typeof h[1] === 'string')) {
    throw new DeskFailure('bad-input', 'The draft headers must be a list of [name, value] pairs.');
  }
  if (typeof draft.bodyBase64 !== 'string') throw new DeskFailure('bad-input', 'The draft body (bodyBase64) is required.');
}

/** The x-server-authorization value a send of this draft would carry (null: none), without sending. */
export function previewSignature(ctx: OutboundDeps, draft: Draft, options: SendOptions): string | null {
  checkDraft(draft);
  return signDraft(draft, options, ctx.profile(options.profile)).header;
}

/** Signs and sends a draft to the target, and records it. */
export async function dispatchDraft(ctx: OutboundDeps, draft: Draft, options: DispatchOptions): Promise<ExchangeDetail> {
  checkDraft(draft);
  const { profile, base, allowSelfSigned } = resolveTarget(ctx, options);
  const { body, inputs, header, headers, signatureByHand } = signDraft(draft, options, profile);
  const report = outboundSignatureReport(body, header, inputs, ctx.signingCandidates(options.profile));
  return sendAndRecord(recordingDeps(ctx, options.profile, callbackSettings(profile, options)), {
    request: {
      url: joinUrl(base, draft.path),
      method: draft.method.toUpperCase(),
      headers,
      body,
      timeoutMs: ctx.options.outboundTimeoutMs,
      allowSelfSigned,
    },
    origin: options.origin,
    sourceId: typeof draft.sourceId === 'number' ? draft.sourceId : null,
    signature: signatureByHand ? { ...report, notes: [BY_HAND_NOTE, ...report.notes.slice(1)] } : report,
    ...(options.tags ? { tags: options.tags } : {}),
  });
}

/** The draft a replay sends: the capture (or its follow-up) with the edits applied. The source row is only read. */
async function replayDraft(ctx: OutboundDeps, request: ReplayRequest): Promise<Draft> {
  if (typeof request?.sourceId !== 'number') throw new DeskFailure('bad-input', 'A replay needs the id of the exchange to send again.');
  const followUpOptions = request.callbackPrefix !== undefined ? { callbackPrefix: request.callbackPrefix } : {};
  const source =
    request.followUp !== undefined
      ? { draft: await draftFollowUp(ctx, request.sourceId, request.followUp, followUpOptions), truncated: false }
      : await capturedDraft(ctx, request.sourceId);
  const draft = source.draft;
  if (source.truncated && request.bodyBase64 === undefined) {
    throw new DeskFailure(
      'bad-input',
      `The body of exchange ${request.sourceId} was cut at the size limit, so it cannot be sent as it was; give a whole body instead.`,
    );
  }
  if (!hasEdits(request)) return draft;
  const body = applyEdits(decodeBase64(draft.bodyBase64, 'The captured body'), request);
  return { ...draft, bodyBase64: Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('base64') };
}

export async function replay(ctx: OutboundDeps, request: ReplayRequest): Promise<ExchangeDetail> {
  const draft = await replayDraft(ctx, request);
  return dispatchDraft(ctx, draft, { ...request, origin: 'replay' });
}
