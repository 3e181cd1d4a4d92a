export { SandboxOperator, type SandboxCall, type SandboxOutcome } from './operator';
export { SandboxLedger, depositRecordOf, money, type DepositRecord, type DepositRow, type SandboxBooks, type StoredAnswer } from './ledger';
export type { SandboxAnswer, SandboxErrorCode } from './answers';
