// The outbound side of the desk: the HTTP client (also used for token requests), recording, drafts,
// signature modes, replay and send, and the structural diff.
export { httpSend, wireHeaders, MAX_RESPONSE_BYTES, type OutboundRequest, type OutboundResponse, type OutboundOutcome } from './http-send';
export { sendAndRecord, type RecordedSend } from './record';
export { describeSendError, type SendErrorCode } from './send-errors';
export { headerValue, withHeader, withoutHeaders, withContentLength, SIGNATURE_HEADER, CONNECTION_HEADERS } from './headers';
export { draftFromExchange, draftFollowUp, draftTemplate, resultsPathFor, TEMPLATE_KINDS } from './drafts';
export { applyEdits, parseSetArgument, decodeBase64, type BodyEdits } from './edit';
export { signatureHeaderFor, isSignatureMode, SIGNATURE_MODES } from './signature-mode';
export { resolveTarget, joinUrl } from './target';
export { dispatchDraft, previewSignature, replay, replayDraft, checkDraft } from './dispatch';
export { diffExchangeDetails } from './diff';
