// The load every proxy gets: real pay callbacks, built by the protocol's builder and signed with the
// real signer, the way the platform sends them. One callback repeated by default; distinct ones
// (a user and a deposit of their own each) with --distinct-keys.
import { createHash } from 'node:crypto';
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

/** The deposit of `distinctPay(tag, i)`, the desk's own form ("wd-" and 32 hex digits), told again without the pay. */
export function distinctDepositId(tag: string, i: number): string {
  return `wd-${createHash('sha256').update(`${tag}:${i}`).digest('hex').slice(0, 32)}`;
}

/**
 * Pay `i` of a load where each has its own user and deposit: what a platform really sends. Every capture
 * then lands at a new place in the desk's deposit and user indexes, where one repeated callback always
 * lands on the same index page (bench/proxy.ts reports which load ran). Made on demand, so a long load
 * need not hold all its requests (the generator's own garbage collection would count in the latencies).
 */
export function distinctPay(tag: string, i: number): SignedCallback {
  return signedPay(`${tag}-user-${i}`, distinctDepositId(tag, i));
}

/** `count` distinct pays, made up front (a short load's, sent as fast as the proxy takes them). */
export function distinctPays(count: number, tag: string): SignedCallback[] {
  return Array.from({ length: count }, (_, i) => distinctPay(tag, i));
}
