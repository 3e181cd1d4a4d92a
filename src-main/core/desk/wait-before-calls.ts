/** What stays synchronous on a desk, or must not queue behind a read: subscribing, and closing. */
const IMMEDIATE: ReadonlySet<string> = new Set(['on', 'close']);

/** Makes each of the desk's asynchronous methods wait for `before` first (the team's profiles, read). */
export function waitBeforeCalls(desk: object, before: () => Promise<void>): void {
  const methods = desk as Record<string, unknown>;
  for (const [name, method] of Object.entries(methods)) {
    if (IMMEDIATE.has(name) || typeof method !== 'function') continue;
    const call = method as (...args: unknown[]) => Promise<unknown>;
    methods[name] = (...args: unknown[]) => before().then(() => call(...args));
  }
}
