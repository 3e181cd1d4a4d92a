import type { DeskError, DeskErrorCode, Result } from '../shared/model';
import { explainStorageFailure } from './store/sqlite/open-errors';

/** A failure with a stable code, thrown inside the core and turned into a Result at the desk's edge. */
export class DeskFailure extends Error {
  constructor(
    readonly code: DeskErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DeskFailure';
  }
}

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export function toDeskError(err: unknown): DeskError {
  if (err instanceof DeskFailure) return { code: err.code, message: err.message };
  // SQLite's "database disk image is malformed" names no file and no way out.
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
