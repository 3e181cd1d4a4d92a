import type { NewExchange } from '../../src-main/core/store/sqlite';

/** A plausible inbound capture row; override what a test cares about. */
export function inboundRow(overrides: Partial<NewExchange> = {}): NewExchange {
  return {
    direction: 'inbound',
    kind: 'pay',
    origin: 'proxy',
    at: new Date().toISOString(),
    method: 'POST',
    path: '/platform/pay',
    query: '',
    target: null,
    headers: [['content-type', 'application/json']],
    body: Buffer.from('{}'),
    size: 2,
    truncated: false,
    remoteAddress: '127.0.0.1',
    signature: { verdict: 'valid', notes: [], diagnosis: null },
    findings: [],
    keys: { depositId: 'd1', userId: 'u1', result: null, gameId: null, amount: 5, currency: 'USD', tournamentId: null },
    sourceId: null,
    ...overrides,
  };
}
