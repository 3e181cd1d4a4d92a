import type { Result } from '../../shared/model';

/** Placeholder for a desk method whose part is not built yet; returns a typed error, never throws. */
export function notYet(method: string): () => Promise<Result<never>> {
  return async () => ({ ok: false, error: { code: 'internal', message: `${method} is not available yet.` } });
}
