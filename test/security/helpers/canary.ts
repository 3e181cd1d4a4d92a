// Looks for a secret in bytes the way a careless writer might have put it there: as UTF-8, UTF-16LE,
// hex (either case), and base64 or base64url at every alignment (a secret inside a larger encoded blob
// shows a different base64 text depending on where it starts).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The byte strings that betray the secret. */
export function needlesOf(secret: string): Buffer[] {
  const raw = Buffer.from(secret, 'utf8');
  const out = [raw, Buffer.from(secret, 'utf16le'), Buffer.from(raw.toString('hex')), Buffer.from(raw.toString('hex').toUpperCase())];
  for (let shift = 0; shift < 3; shift++) {
    const encoded = Buffer.concat([Buffer.alloc(shift, 0x20), raw]).toString('base64');
    // Only the characters made of the secret's bytes alone: whole 3-byte groups after the shift.
    const from = Math.ceil(shift / 3) * 4;
    const to = Math.floor((shift + raw.length) / 3) * 4;
    const core = encoded.slice(from, to);
    out.push(Buffer.from(core), Buffer.from(core.replace(/\+/g, '-').replace(/\//g, '_')));
  }
  return out;
}

/** The names of the forms of `secret` found in `bytes` (empty when none). */
export function formsIn(bytes: Uint8Array | string, secret: string): string[] {
  const hay = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const names = ['utf8', 'utf16le', 'hex', 'HEX', 'base64@0', 'base64url@0', 'base64@1', 'base64url@1', 'base64@2', 'base64url@2'];
  return needlesOf(secret).flatMap((n, i) => (hay.includes(n) ? [names[i]!] : []));
}

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every place (a file, or a labelled text) that holds any of the secrets, with the forms found. */
export function leaks(places: Array<{ label: string; bytes: Uint8Array | string }>, secrets: readonly string[]): string[] {
  const found: string[] = [];
  for (const place of places) {
    for (const secret of secrets) {
      const forms = formsIn(place.bytes, secret);
      if (forms.length > 0) found.push(`${place.label} holds ${secret.slice(0, 6)}… as ${forms.join(', ')}`);
    }
  }
  return found;
}

export function filePlaces(dir: string): Array<{ label: string; bytes: Buffer }> {
  return filesUnder(dir).map((file) => ({ label: file, bytes: readFileSync(file) }));
}

/** The files under `dir` that hold `secret` in any of the forms above. */
export function filesHolding(dir: string, secret: string): string[] {
  return filesUnder(dir).filter((file) => formsIn(readFileSync(file), secret).length > 0);
}
