import type { ExchangeDetail, Timeline } from '../../../src-main/shared/model';
import { acceptedBadSignature, acceptedBadSignatureText, deskAnswerText } from '../../../src-main/shared/exchange-warnings';
import { ExchangeLink } from '../../components/ExchangeLink';
import { FLAG_TITLES, NOTHING_UNUSUAL } from '../../components/flag-titles';

/**
 * The bad news first: an operator that accepted a badly signed callback, an answer the desk made in
 * the operator's place, and what looks wrong in the deposit this exchange belongs to.
 */
export function WarningsSection(props: { detail: ExchangeDetail; deposit: Timeline | null }) {
  const { detail, deposit } = props;
  const accepted = acceptedBadSignature(detail);
  const deskAnswer = deskAnswerText(detail);
  const flags = deposit?.depositId === detail.depositId ? (deposit?.flags ?? null) : null;
  return (
    <>
      {accepted && (
        <div className="alert alert-danger" role="alert" data-testid="warning-accepted-bad">
          <strong>⚑ The operator answered {detail.response!.status}:</strong> {acceptedBadSignatureText(accepted)}. An operator must refuse a callback whose
          signature does not verify; this one was taken as genuine.
        </div>
      )}
      {deskAnswer && (
        <div className="alert alert-desk" role="status" data-testid="warning-desk-answer">
          <strong>Answered by the desk.</strong> {deskAnswer}
        </div>
      )}
      {flags !== null && (
        <div className={flags.length > 0 ? 'alert alert-warn' : 'deposit-ok'} data-testid="detail-deposit-flags" data-count={flags.length}>
          {flags.length === 0 ? (
            <span>✓ Deposit: {NOTHING_UNUSUAL}</span>
          ) : (
            <>
              <strong>This deposit has {flags.length === 1 ? 'an anomaly' : `${flags.length} anomalies`}:</strong>
              <ul className="flag-list">
                {flags.map((f) => (
                  <li
                    key={f.flag}
                    data-flag={f.flag}
                    data-testid="detail-deposit-flag"
                    className={
                      [f.exchangeIds.includes(detail.id) ? 'flag-this' : '', f.flag === 'accepted-bad-signature' ? 'flag-danger' : ''].join(' ').trim() ||
                      undefined
                    }
                  >
                    <strong>⚑ {FLAG_TITLES[f.flag]}.</strong> {f.message}{' '}
                    <span className="small">
                      (
                      {f.exchangeIds.map((id, i) => (
                        <span key={id}>
                          {i > 0 && ', '}
                          {id === detail.id ? <strong>#{id} (this one)</strong> : <ExchangeLink id={id} testId="flag-link" />}
                        </span>
                      ))}
                      )
                    </span>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
    </>
  );
}
