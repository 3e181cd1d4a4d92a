import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The openssl-made signature vectors (copied from the project's shared vectors). */
export interface Vector {
  name: string;
  secret: string;
  bodyBase64: string;
  signature: string;
}

export const VECTORS: Vector[] = JSON.parse(readFileSync(fileURLToPath(new URL('../fixtures/signatures.json', import.meta.url)), 'utf8')) as Vector[];

export const bodyOf = (v: Vector): Buffer => Buffer.from(v.bodyBase64, 'base64');
