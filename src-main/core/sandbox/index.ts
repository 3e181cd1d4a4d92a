export { SandboxOperator, type SandboxCall, type SandboxOutcome } from './operator';
export { SandboxLedger, money, type DepositRecord, type SandboxBooks, type StoredAnswer } from './ledger';
export type { SandboxAnswer, SandboxErrorCode } from './answers';
