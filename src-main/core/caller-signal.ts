// Whether the caller of a desk method still waits for its answer. The web API runs each call inside
// whileCallerWaits with a signal aborted when the HTTP client disconnects; the log's reads started
// during that call (however deep) take the signal and stop their work on a reading thread when it
// fires. DeskApi's methods keep their arguments: the signal travels with the call's asynchronous context.
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<AbortSignal>();

/** Runs `call` with `signal` as its caller's: aborted, the reads it started stop. */
export function whileCallerWaits<T>(signal: AbortSignal, call: () => T): T {
  return current.run(signal, call);
}

/** The signal of the call under way, if its shell gave one. */
export function callerSignal(): AbortSignal | undefined {
  return current.getStore();
}
