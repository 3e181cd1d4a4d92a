// Money evidence for the conformance check: the observer interface, the profile's probe, exact balances.
export { NO_BALANCE_EVIDENCE, type BalanceEvidence, type BalanceObserver } from './observer';
export { buildBalanceObserver, type BalanceObserverDeps } from './build-observer';
export { balanceDelta, DEFAULT_CURRENCY_EXPONENT, formatAmount, parseAmount, readBalance } from './money';
export { parseHeaderLine } from './probe-config';
export { runBalanceObserver, runsElsewhere, type RunBalanceOptions } from './run-observer';
