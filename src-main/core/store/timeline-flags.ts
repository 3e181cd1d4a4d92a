import type { ExchangeSummary, Timeline } from '../../shared/model';

/**
 * What looks wrong in one deposit's story, judged on the callbacks the platform sent (inbound rows):
 * replays and sends are the desk's own doing and would flag every replay as a duplicate.
 */
export function timelineFlags(entries: readonly ExchangeSummary[]): Timeline['flags'] {
  const flags: Timeline['flags'] = [];
  const inbound = entries.filter((e) => e.direction === 'inbound');
  const pays = inbound.filter((e) => e.kind === 'pay');
  const results = inbound.filter((e) => e.kind === 'results');
  if (pays.length > 1) {
    flags.push({ flag: 'duplicate-pay', message: `The pay was sent ${pays.length} times; the operator must deduct once.`, exchangeIds: pays.map((e) => e.id) });
  }
  if (results.length > 1) {
    flags.push({
      flag: 'duplicate-results',
      message: `Results were sent ${results.length} times; the operator must process them once.`,
      exchangeIds: results.map((e) => e.id),
    });
  }
  const firstPay = pays[0]?.id ?? Infinity;
  const early = results.filter((e) => e.id < firstPay);
  if (early.length > 0) {
    flags.push({
      flag: 'results-without-pay',
      message: pays.length === 0 ? 'Results arrived for a deposit whose pay was never captured.' : 'Results arrived before the pay.',
      exchangeIds: early.map((e) => e.id),
    });
  }
  const outcomes = [...new Set(results.map((e) => e.result).filter((r): r is string => r !== null))];
  if (outcomes.length > 1) {
    flags.push({
      flag: 'conflicting-outcomes',
      message: `Different outcomes were sent for one deposit: ${outcomes.join(', ')}.`,
      exchangeIds: results.map((e) => e.id),
    });
  }
  return flags;
}
