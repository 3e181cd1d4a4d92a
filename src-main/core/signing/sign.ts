import { createHmac } from 'node:crypto';

export { SIGNATURE_HEADER } from '../../shared/model';

/** Lowercase hex HMAC-SHA256 of the exact bytes. The secret is taken as UTF-8 text, as operators hold it. */
export function sign(bytes: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(bytes).digest('hex');
}

/** A well-formed signature that cannot match the body: the real one with every hex digit rotated. */
export function invalidSignatureFor(bytes: Uint8Array, secret: string): string {
  const real = sign(bytes, secret);
  let out = '';
  for (const ch of real) out += ((parseInt(ch, 16) + 1) % 16).toString(16);
  return out;
}
