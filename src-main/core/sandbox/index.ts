export { SandboxOperator, type SandboxCall, type SandboxOutcome } from './operator';
export { SandboxLedger, money, DEFAULT_STARTING_BALANCE, STARTING_BALANCE_KEY } from './ledger';
export { INSUFFICIENT_BALANCE_STATUS, errorAnswer, type SandboxAnswer, type SandboxErrorCode } from './answers';
