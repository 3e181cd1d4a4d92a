import type { ExchangeSummary, Timeline } from '../../../shared/model';
import { depositAnomalies } from './deposit-anomalies';

/**
 * What looks wrong in one deposit's story. Repeats and order are judged on the callbacks the platform
 * sent (inbound rows): replays and sends are the desk's own doing and would flag every replay as a
 * duplicate. The money (outcomes, amounts, changed pays) and accepted bad signatures are judged on
 * every row that names the deposit (deposit-anomalies.ts).
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
  const anomalies = depositAnomalies(entries);
  const firstPay = pays[0]?.id ?? Infinity;
  const early = results.filter((e) => e.id < firstPay);
  if (early.length > 0 && !anomalies.some((f) => f.flag === 'results-without-pay')) {
    flags.push({
      flag: 'results-without-pay',
      message: pays.length === 0 ? 'Results arrived for a deposit whose pay was never captured.' : 'Results arrived before the pay.',
      exchangeIds: early.map((e) => e.id),
    });
  }
  return [...flags, ...anomalies];
}
