// What the money of one deposit says is wrong, judged on every exchange that names the deposit, the
// desk's own sends and replays included: an operator sees those too, so a replayed REFUND at another
// amount is as much an anomaly as one the platform sent.
import type { ExchangeSummary, Timeline } from '../../../shared/model';
import { acceptedBadSignature, acceptedBadSignatureText } from '../../../shared/exchange-warnings';

type Flags = Timeline['flags'];

const CREDITS = new Set(['WIN', 'DRAW']);
/** Results whose amount must be the stake: a REFUND gives it back, a DRAW returns it. A WIN's amount is the prize. */
const STAKE_AMOUNTS = new Set(['REFUND', 'DRAW']);

const money = (x: ExchangeSummary): string => `${x.amount ?? '?'}${x.currency ? ` ${x.currency}` : ''}`;

/** The pay the deposit is judged against: the first one the platform sent, else the first one sent at all. */
function referencePay(pays: readonly ExchangeSummary[]): ExchangeSummary | null {
  return pays.find((p) => p.direction === 'inbound') ?? pays[0] ?? null;
}

export function depositAnomalies(entries: readonly ExchangeSummary[]): Flags {
  const flags: Flags = [];
  const named = entries.filter((e) => e.depositId !== null);
  const pays = named.filter((e) => e.kind === 'pay');
  const results = named.filter((e) => e.kind === 'results' && e.result !== null);

  const outcomes = [...new Set(results.map((e) => e.result!))];
  if (outcomes.length > 1) {
    flags.push({
      flag: 'conflicting-outcomes',
      message: `Different outcomes were sent for one deposit: ${outcomes.join(', ')}.`,
      exchangeIds: results.map((e) => e.id),
    });
  }
  const credits = results.filter((e) => CREDITS.has(e.result!));
  const refunds = results.filter((e) => e.result === 'REFUND');
  if (credits.length > 0 && refunds.length > 0) {
    const credited = [...new Set(credits.map((e) => e.result!))].join(' and ');
    flags.push({
      flag: 'credit-and-refund',
      message: `The deposit got a ${credited} and a REFUND: an operator that processes both pays the user twice.`,
      exchangeIds: [...credits, ...refunds].map((e) => e.id).sort((a, b) => a - b),
    });
  }

  const pay = referencePay(pays);
  if (pay === null && results.length > 0) {
    flags.push({
      flag: 'results-without-pay',
      message: 'Results were sent for a deposit whose pay was never captured or sent.',
      exchangeIds: results.map((e) => e.id),
    });
  }
  if (pay !== null) {
    const differing = results.filter(
      (e) =>
        (STAKE_AMOUNTS.has(e.result!) && e.amount !== null && e.amount !== pay.amount) ||
        (e.result !== 'LOSE' && e.currency !== null && pay.currency !== null && e.currency !== pay.currency),
    );
    if (differing.length > 0) {
      const amounts = [...new Set(differing.map((e) => `${e.result} ${money(e)}`))].join(', ');
      flags.push({
        flag: 'amount-differs',
        message: `The pay (#${pay.id}) was ${money(pay)}, but ${amounts} ${differing.length === 1 ? 'was' : 'were'} sent for it.`,
        exchangeIds: [pay.id, ...differing.map((e) => e.id)],
      });
    }
    const changed = pays.filter((p) => p !== pay && changedFields(pay, p).length > 0);
    if (changed.length > 0) {
      const fields = [...new Set(changed.flatMap((p) => changedFields(pay, p)))].join(', ');
      flags.push({
        flag: 'pay-changed',
        message: `The pay was sent again with other fields (${fields}): the operator must keep the first one.`,
        exchangeIds: [pay.id, ...changed.map((p) => p.id)],
      });
    }
  }

  const accepted = named.filter((e) => acceptedBadSignature(e) !== null);
  for (const verdict of [...new Set(accepted.map((e) => acceptedBadSignature(e)!))]) {
    const ids = accepted.filter((e) => acceptedBadSignature(e) === verdict).map((e) => e.id);
    flags.push({ flag: 'accepted-bad-signature', message: `${capitalize(acceptedBadSignatureText(verdict))}.`, exchangeIds: ids });
  }
  return flags;
}

const PAY_FIELDS = ['userId', 'amount', 'currency', 'gameId', 'tournamentId'] as const;

function changedFields(a: ExchangeSummary, b: ExchangeSummary): string[] {
  return PAY_FIELDS.filter((f) => a[f] !== b[f]);
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
