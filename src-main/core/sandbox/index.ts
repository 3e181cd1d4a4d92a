export { SandboxOperator, type SandboxCall, type SandboxOutcome } from './operator';
export { depositRecordOf, money, type DepositRecord, type DepositRow, type OwnBooks, type SandboxBooks, type StoredAnswer } from './books';
export type { SandboxAnswer, SandboxErrorCode } from './answers';
