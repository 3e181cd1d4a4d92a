// Money evidence for the conformance check: the observer interface, reading a profile's probe, exact balances.
export { NO_BALANCE_EVIDENCE, type BalanceEvidence, type BalanceObserver } from './observer';
export { buildBalanceObserver, type BalanceObserverDeps } from './build-observer';
export { balanceDelta, DEFAULT_CURRENCY_EXPONENT, formatAmount, parseAmount, readBalance } from './money';
export { runBalanceObserver, runsElsewhere, type RunBalanceOptions } from './run-observer';
