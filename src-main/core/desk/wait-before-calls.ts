import { toDeskError } from './attempt';

/** What stays synchronous on a desk, or must not queue behind a read: subscribing, and closing. */
const IMMEDIATE: ReadonlySet<string> = new Set(['on', 'close']);

/** What works on a database whatever its schema (bringing it to this version's is one of them). */
const SCHEMA_TOOLS: ReadonlySet<string> = new Set(['migrateDatabase', 'useDatabase', 'savedDatabase', 'copyDatabase']);

/**
 * Makes each of the desk's asynchronous methods wait for `before` first (the team's profiles, read). A
 * `before` that fails is the call's failure, as a result like the call's own.
 */
export function waitBeforeCalls(desk: object, before: () => Promise<void>): void {
  const methods = desk as Record<string, unknown>;
  for (const [name, method] of Object.entries(methods)) {
    if (IMMEDIATE.has(name) || typeof method !== 'function') continue;
    const call = method as (...args: unknown[]) => Promise<unknown>;
    methods[name] = SCHEMA_TOOLS.has(name)
      ? (...args: unknown[]) =>
          before().then(
            () => call(...args),
            () => call(...args),
          )
      : (...args: unknown[]) =>
          before().then(
            () => call(...args),
            (err: unknown) => ({ ok: false, error: toDeskError(err) }),
          );
  }
}
