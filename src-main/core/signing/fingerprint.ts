import { createHash } from 'node:crypto';

/** A short, non-reversible tag that lets a person tell two secrets apart without seeing either. */
export function fingerprint(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 8);
}
