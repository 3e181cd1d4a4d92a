// Exit codes of the CLI contract (design/CLI.md); success is 0.
/** A negative answer: a signature that does not verify, a failed check, no HTTP response from a target. */
export const EXIT_NEGATIVE = 1;
/** A usage or configuration error: unknown flag, missing secret, unreadable file. */
export const EXIT_USAGE = 2;
/** Nothing failed, but some of what was asked could not be observed (a money rule without balance evidence): never a pass. */
export const EXIT_NOT_OBSERVED = 3;

/** A usage or configuration problem: printed as one line on stderr, exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** A negative answer whose details were already printed: exit 1. */
export class NegativeAnswer extends Error {
  constructor(message = '') {
    super(message);
    this.name = 'NegativeAnswer';
  }
}

/** Nothing failed, but not everything could be observed; the details were already printed: exit 3. */
export class NotObservedAnswer extends Error {
  constructor(message = '') {
    super(message);
    this.name = 'NotObservedAnswer';
  }
}
