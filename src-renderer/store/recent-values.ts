// Small lists the screens remember between sessions (recent token users, the last test user of a
// check) in localStorage. Only plain identifiers go here: never a secret, never an API key, never a
// token. Storage can be unavailable (disabled, full): then the lists simply start empty.

export function readStored<T>(key: string, valid: (value: unknown) => value is T, fallback: T): T {
  try {
    const raw = window.localStorage.getItem(key);
    if (raw === null) return fallback;
    const value: unknown = JSON.parse(raw);
    return valid(value) ? value : fallback;
  } catch {
    return fallback;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // not remembered this time; nothing else depends on it
  }
}
