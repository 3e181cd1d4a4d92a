import type { EdgeCase, EdgeCaseRun } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { ExchangeLink } from '../../components/ExchangeLink';
import { ErrorBanner } from '../../components/ErrorBanner';
import { useDesk } from '../../store';
import type { EdgeCaseRunState } from '../../store/edge-cases-slice';
import { CheckRow } from '../checks/CheckRow';

function Verdict(props: { pass: boolean | null; outcome: EdgeCaseRun['outcome'] }) {
  if (props.outcome === 'not-observable')
    return (
      <Badge
        tone="grey"
        testId="edge-verdict"
        data={{ pass: 'null', outcome: 'not-observable' }}
        title="The answer is as expected; the money could not be observed"
      >
        ? money not observable
      </Badge>
    );
  if (props.pass === true)
    return (
      <Badge tone="green" testId="edge-verdict" data={{ pass: 'true' }}>
        ✓ as the spec expects
      </Badge>
    );
  if (props.pass === false)
    return (
      <Badge tone="red" testId="edge-verdict" data={{ pass: 'false' }}>
        ✗ not as expected
      </Badge>
    );
  return (
    <Badge tone="grey" testId="edge-verdict" data={{ pass: 'null' }}>
      not judged: read the answer
    </Badge>
  );
}

/** One case of the catalog: what it tests, what the spec expects, Send, and how the operator answered. */
export function EdgeCaseCard(props: { edge: EdgeCase; state: EdgeCaseRunState | undefined; canSend: boolean; onSend(): void }) {
  const { edge, state } = props;
  const openId = useDesk((s) => s.openId);
  const toComposer = useDesk((s) => s.openComposerFromExchange);
  const run = state?.run ?? null;
  const outcome = run ? (run.outcome === 'not-observable' ? 'not-observable' : run.pass === true ? 'pass' : run.pass === false ? 'fail' : 'unjudged') : 'none';
  return (
    <li className={`edge-card edge-${outcome}`} data-testid="edge-case" data-case={edge.id} data-outcome={outcome}>
      <div className="edge-head">
        <div>
          <h4 className="edge-title">{edge.title}</h4>
          <code className="edge-id">{edge.id}</code>
        </div>
        <span className="spacer" />
        {edge.checkable ? (
          <Badge tone="blue" title="The desk judges the answer against the spec">
            judged
          </Badge>
        ) : (
          <Badge tone="grey" title="The spec leaves the outcome open: read the answer">
            read the answer
          </Badge>
        )}
        <button
          type="button"
          className="btn btn-small btn-primary"
          disabled={state?.running || !props.canSend}
          title={props.canSend ? undefined : 'Choose where to send first'}
          onClick={props.onSend}
          data-testid="edge-send"
        >
          {state?.running ? 'Sending…' : run ? 'Send again' : 'Send'}
        </button>
      </div>
      <dl className="edge-facts">
        <dt>Tests</dt>
        <dd>{edge.tests}</dd>
        <dt>Spec expects</dt>
        <dd>{edge.expected}</dd>
        {edge.rule && (
          <>
            <dt>Rule</dt>
            <dd data-testid="edge-rule">
              §{edge.rule.section}: {edge.rule.text}
            </dd>
          </>
        )}
      </dl>
      <ErrorBanner error={state?.error ?? null} context="Not sent" testId="edge-error" />
      {run && (
        <div className="edge-result" data-testid="edge-result">
          <div className="edge-result-line">
            <Verdict pass={run.pass} outcome={run.outcome} />
            <span data-testid="edge-summary">{run.summary}</span>
          </div>
          {run.checks && run.checks.length > 0 && (
            <ul className="check-list edge-checks" data-testid="edge-checks">
              {run.checks.map((c) => (
                <CheckRow key={c.id} check={c} />
              ))}
            </ul>
          )}
          <div className="edge-exchanges">
            <span className="muted small">Requests sent:</span>
            {run.exchangeIds.map((id) => (
              <span key={id} className={`edge-exchange${id === openId ? ' opened' : ''}`}>
                <ExchangeLink id={id} testId="edge-exchange" />
                <button
                  type="button"
                  className="btn btn-ghost btn-small"
                  onClick={() => void toComposer(id)}
                  title="Edit this request and send it again"
                  data-testid="edge-to-composer"
                >
                  open in composer
                </button>
              </span>
            ))}
          </div>
        </div>
      )}
    </li>
  );
}
