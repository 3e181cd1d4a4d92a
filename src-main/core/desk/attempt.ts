// The desk's edge: a method's body runs here, and its value or its error becomes a Result. The store's
// own failures are told in its words (SQLite's "database disk image is malformed" names no file and no
// way out), which is why this lives on the desk's floor: result.ts, below every layer, knows no engine.
import type { DeskError, Result } from '../../shared/model';
import { DeskFailure } from '../result';
import { explainStorageFailure } from '../store/sqlite/open-errors';

const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export function toDeskError(err: unknown): DeskError {
  if (err instanceof DeskFailure) return { code: err.code, message: err.message };
  const storage = explainStorageFailure(err);
  if (storage) return { code: 'io-error', message: storage.message };
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'bad-input' || code === 'not-found') return { code, message: (err as Error).message };
  if (err instanceof Error) return { code: 'internal', message: err.message };
  return { code: 'internal', message: String(err) };
}

/** Runs a desk method body and returns its value or its error as a Result; never rejects. */
export async function attempt<T>(fn: () => T | Promise<T>): Promise<Result<T>> {
  try {
    return ok(await fn());
  } catch (err) {
    return { ok: false, error: toDeskError(err) };
  }
}
