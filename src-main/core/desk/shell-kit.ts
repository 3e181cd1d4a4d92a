// The shells' one door into the core besides createDesk: constants, parsers and formatters with no
// state, which the CLI and the Electron shell need to read their arguments and print results. Anything
// that touches the store, the network or a secret goes through DeskApi instead; the lint's boundary
// rule lets shells import core/desk only, so this list is the whole of what they reach.
export { DEFAULT_PROXY_HOST, DEFAULT_PROXY_PORT } from '../proxy/options';
export { DeskFailure } from '../result';
export { toDeskError } from './attempt';
export { whileCallerWaits } from '../caller-signal';
export { defaultHome } from '../paths';
export { listenFailure } from '../listen-failure';
export { MAX_HAR_EXCHANGES } from '../export/har-select';
export { TEMPLATE_KINDS } from '../outbound/drafts';
export { applyEdits, parseSetArgument } from '../outbound/edit';
export { isSignatureMode, SIGNATURE_MODES } from '../outbound/signature-mode';
export { callbackPrefixProblem } from '../protocol/callback-path';
export { isResultValue } from '../protocol/field-rules';
export { checkJson, checkLine, countsLine, runIdsPrefix } from '../checks/report-export';
export { parseHeaderLine } from '../balance-probe/probe-config';
export { maskedBalanceUrl } from '../balance-probe/probe-secrets';
export { fileKind } from '../private-file';
export { databaseSecrets, databaseUrlProblem, redactDatabaseUrl } from '../store/database-url';
export { KEY_BYTES } from '../store/sealing/key-source';
