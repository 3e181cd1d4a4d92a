export { judge, type CapturedRequest, type JudgeOptions, type JudgingContext, type Judgment } from './judge';
export { routeOf, DEFAULT_CALLBACK_PREFIX, type Route } from './kind';
export { boundFindings, findingsBudget, MAX_STORED_FINDINGS, MAX_FINDING_PATH, MAX_FINDINGS_BYTES } from './bounds';
export { rejudgeSignature } from './rejudge';
export { redactAnswer, redactCompletion } from './completion';
