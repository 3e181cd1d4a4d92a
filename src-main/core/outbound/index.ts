// The outbound side of the desk as the desk and the CLI use it: drafts, signature modes, body edits,
// replay and send, and the structural diff. The HTTP client and recording are imported by path.
export { MAX_RESPONSE_BYTES } from './http-send';
export { draftFromExchange, draftFollowUp, draftTemplate, TEMPLATE_KINDS } from './drafts';
export { applyEdits, parseSetArgument } from './edit';
export { isSignatureMode, SIGNATURE_MODES } from './signature-mode';
export { dispatchDraft, previewSignature, replay, checkDraft } from './dispatch';
export { diffExchangeDetails } from './diff';
export {
  explainRefusal,
  recordingProbeSender,
  type ProbeSender,
  type ProbeSend,
  type ProbeAnswer,
  type RefusedMessage,
  type ProbeTarget,
} from './refusal-probe';
