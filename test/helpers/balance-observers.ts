// Balance observers over a stand-in operator's test-users endpoint (GET <url>/test/balance/<userId>,
// {"balance": n}) and over the balance its answers carry ({"balance": n}): how a profile's balance
// probe and answer balance path read money, for tests that drive the check through DeskApi.
import type { BalanceEvidence, BalanceObserver } from '../../src-main/core/balance/observer';

function balanceIn(text: string): string | null {
  try {
    const value = (JSON.parse(text) as { balance?: unknown }).balance;
    return typeof value === 'number' || (typeof value === 'string' && value.trim() !== '') ? String(value) : null;
  } catch {
    return null;
  }
}

/** Reads the user's balance from the operator's balance endpoint. */
export function probeObserver(operatorUrl: string): BalanceObserver {
  return {
    available: true,
    howToObserve: 'the test probe is configured',
    async read(userId: string): Promise<BalanceEvidence> {
      const res = await fetch(`${operatorUrl}/test/balance/${encodeURIComponent(userId)}`);
      const text = await res.text();
      if (!res.ok) return { kind: 'unavailable', reason: `the probe answered ${res.status} ${text}` };
      const value = balanceIn(text);
      return value === null ? { kind: 'unavailable', reason: `no balance in ${text}` } : { kind: 'reading', value, source: 'probe' };
    },
    fromAnswer: () => null,
  };
}

/** Reads the balance from the operator's answers only ($.balance): no probe. */
export function answerObserver(): BalanceObserver {
  return {
    available: true,
    howToObserve: 'set a balance probe',
    read: async () => ({ kind: 'unavailable', reason: 'no balance probe is configured' }),
    fromAnswer(body: Uint8Array): BalanceEvidence | null {
      const value = balanceIn(Buffer.from(body).toString('utf8'));
      return value === null ? null : { kind: 'reading', value, source: 'answer' };
    },
  };
}
