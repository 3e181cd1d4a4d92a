export { SandboxOperator, type SandboxCall, type SandboxOutcome } from './operator';
export { SandboxLedger, money } from './ledger';
export type { SandboxAnswer, SandboxErrorCode } from './answers';
