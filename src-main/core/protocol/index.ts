// The public surface of the protocol module: what the spec's messages are (schemas), how a body
// measures up (inspect), the indexed columns of a capture (key fields), fresh messages (builders)
// and field edits (json paths). Internals (field tables, scanners) stay importable by path.
export { payRequestSchema, resultRequestSchema, RESULT_SCHEMAS, tokenRequestSchema, tokenResponseSchema, paymentErrorSchema } from './schemas';
export type { PayRequest, ResultRequest, WinOrDrawResult, LoseResult, RefundResult, TokenRequestBody, TokenResponseBody, PaymentErrorBody } from './schemas';
export { RESULT_FIELD_TABLE, UUID_V4, isResultValue } from './field-rules';
export type { Presence, FieldTable, FieldName } from './field-rules';
export { inspect, inspectCallback, inspectCapture, kindOfPath, MESSAGE_KINDS, MAX_FINDINGS } from './inspect';
export type { MessageKind, CallbackPathKind } from './inspect';
export { extractKeyFields, NO_KEY_FIELDS } from './key-fields';
export { callbackRoute, callbackPath, callbackPrefixProblem, prefixFinding, DEFAULT_CALLBACK_PREFIX } from './callback-path';
export type { CallbackRoute } from './callback-path';
export { amountFindings, amountProblem, defaultStake, DEFAULT_AMOUNTS } from './amounts';
export { judgeUnderProfile } from './callback-judging';
export { buildPay, buildResult, followUpOf, toBytes, creditFor, freshTournamentId, isDeskMadeId, DEFAULT_CURRENCY } from './builders';
export type { PayInput, ResultInput, FollowUpOverrides } from './builders';
export { setPath, unsetPath, parseCliValue, JsonPathError } from './json-path';
// Paths as findings write them, for other modules that name places in a body (the diff).
export { pathOf, indexPath, isPlainObject } from './finding-text';
