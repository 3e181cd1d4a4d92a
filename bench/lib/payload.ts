// The load every proxy gets: real pay callbacks, built by the protocol's builder and signed with the
// real signer, the way the platform sends them. One callback repeated by default; distinct ones
// (a user and a deposit of their own each) with --distinct-keys.
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

/**
 * `count` pays, each with its own user and deposit: what a platform really sends. Every capture then
 * lands at a new place in the desk's deposit and user indexes, where one repeated callback always
 * lands on the same index page (bench/proxy.ts reports which load ran).
 */
export function distinctPays(count: number, tag: string): SignedCallback[] {
  const out: SignedCallback[] = [];
  for (let i = 0; i < count; i++) out.push(signedPay(`${tag}-user-${i}`));
  return out;
}
