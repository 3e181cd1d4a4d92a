// The load every proxy gets: one real pay callback, built by the protocol's builder and signed with the
// real signer, the way the platform sends it.
import { buildPay, toBytes } from '../../src-main/core/protocol';
import { sign } from '../../src-main/core/signing';
import { BENCH_SECRET } from './exchange-rows';

export interface SignedCallback {
  path: string;
  body: Buffer;
  headers: Record<string, string>;
}

export function signedPay(userId = 'bench-user-1', depositId?: string): SignedCallback {
  const body = Buffer.from(toBytes(buildPay({ userId, amount: 5, ...(depositId ? { depositId } : {}) })));
  return {
    path: '/platform/pay',
    body,
    headers: { 'content-type': 'application/json', 'x-server-authorization': sign(body, BENCH_SECRET) },
  };
}
