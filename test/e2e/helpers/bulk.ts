// Fills a desk's exchange log directly through the store (one transaction), for tests that need far
// more rows than sending callbacks one by one would allow.
import type { Desk } from '../../../src-main/core/desk';
import type { Verdict } from '../../../src-main/shared/model';
import { connectionOf } from '../../../src-main/core/store/sqlite';
import { storeOf } from '../../helpers/desk';

const VERDICT_CYCLE: Verdict[] = ['valid', 'valid', 'valid', 'mismatch', 'valid', 'missing', 'valid'];

export function insertCaptures(desk: Desk, count: number): void {
  const store = storeOf(desk);
  const start = Date.parse('2026-01-01T00:00:00Z');
  const encoder = new TextEncoder();
  // Captures of the active profile, as its proxy would record them: the list shows the active profile's rows.
  const profile = store.profiles.activeName();
  connectionOf(store).transaction(() => {
    for (let i = 0; i < count; i++) {
      const isPay = i % 3 !== 2;
      const depositId = `dep-${i}`;
      const userId = `user-${i % 500}`;
      const body = isPay
        ? { userId, depositId, currency: 'EUR', amount: 5 + (i % 20) }
        : { result: 'WIN', userId, depositId, roomId: 'r', gameId: 'blocks', currency: 'EUR', amount: 10 };
      const bytes = encoder.encode(JSON.stringify(body));
      const summary = store.exchanges.insert({
        direction: 'inbound',
        kind: isPay ? 'pay' : 'results',
        origin: 'proxy',
        at: new Date(start + i * 1000).toISOString(),
        method: 'POST',
        path: isPay ? '/platform/pay' : '/platform/results',
        query: '',
        target: null,
        headers: [['content-type', 'application/json']],
        body: bytes,
        size: bytes.length,
        truncated: false,
        remoteAddress: '127.0.0.1',
        signature: { verdict: VERDICT_CYCLE[i % VERDICT_CYCLE.length]!, notes: [], diagnosis: null },
        findings: [],
        keys: { depositId, userId, result: isPay ? null : 'WIN', gameId: isPay ? null : 'blocks', amount: body.amount, currency: 'EUR', tournamentId: null },
        sourceId: null,
        profile,
      });
      store.exchanges.complete(summary.id, {
        response: { status: 200, headers: [['content-type', 'application/json']], body: encoder.encode('{"status":"ok"}') },
        error: null,
        durationMs: 3,
        completedAt: new Date(start + i * 1000 + 3).toISOString(),
      });
    }
  })();
}
