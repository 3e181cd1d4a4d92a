import type { ExchangeDetail } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { Section } from '../../components/Section';
import { decodeBody } from '../../components/body';
import { clientErrorsOf } from './client-errors';

/** For a refused pay: what the client SDK's handleError receives, and what it never sees. */
export function ClientErrorsSection(props: { detail: ExchangeDetail }) {
  const { detail } = props;
  const text = detail.response ? decodeBody(detail.response.bodyBase64).text : null;
  const report = clientErrorsOf(detail.kind, detail.response?.status ?? null, text);
  if (!report) return null;
  const shapeOk = report.shapeProblems.length === 0;
  return (
    <Section
      title="What the client SDK's handleError receives"
      aside={shapeOk ? <Badge tone="green">spec shape</Badge> : <Badge tone="red">wrong shape</Badge>}
      testId="client-errors"
      tone={shapeOk ? 'plain' : 'warn'}
    >
      <p>
        The operator refused this pay with {report.status}. Only errors whose <code>isClientSafe</code> is <code>true</code> reach the front end's{' '}
        <code>handleError</code>.
      </p>
      <div className="client-errors-grid">
        <div>
          <div className="label">Reaches handleError</div>
          {report.reaching.length === 0 ? (
            <p className="muted" data-testid="client-errors-reaching">
              nothing: the user sees no reason for the refusal
            </p>
          ) : (
            <ul data-testid="client-errors-reaching">
              {report.reaching.map((c, i) => (
                <li key={i}>
                  <code>{c}</code>
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <div className="label">Withheld from the client</div>
          {report.withheld.length === 0 ? (
            <p className="muted">none</p>
          ) : (
            <ul data-testid="client-errors-withheld">
              {report.withheld.map((w, i) => (
                <li key={i}>
                  <code>{w.code ?? '(no code)'}</code> <span className="muted">{w.reason}</span>
                </li>
              ))}
            </ul>
          )}
        </div>
      </div>
      {!shapeOk && (
        <ul className="notes notes-warn" data-testid="client-errors-shape">
          {report.shapeProblems.map((p, i) => (
            <li key={i}>{p}</li>
          ))}
        </ul>
      )}
    </Section>
  );
}
