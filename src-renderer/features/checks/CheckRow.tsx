import { outcomeOfCheck, type CheckOutcome, type CheckResult } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { ExchangeLink } from '../../components/ExchangeLink';
import { useDesk } from '../../store';

function CheckBadge(props: { pass: boolean | null; outcome: CheckOutcome }) {
  if (props.outcome === 'blocked')
    return (
      <Badge
        tone="amber"
        data={{ pass: 'false', outcome: 'blocked' }}
        testId="check-badge"
        title="A step this check depends on did not get the answer it needs"
      >
        ⊘ blocked
      </Badge>
    );
  if (props.outcome === 'inconclusive')
    return (
      <Badge
        tone="amber"
        data={{ pass: 'null', outcome: 'inconclusive' }}
        testId="check-badge"
        title="Refused, and its plain control was refused too: the refusal names no cause"
      >
        ~ inconclusive
      </Badge>
    );
  if (props.outcome === 'warning')
    return (
      <Badge tone="amber" data={{ pass: 'null', outcome: 'warning' }} testId="check-badge" title="The desk's advice, not the spec's rule: never fails the run">
        ! warning
      </Badge>
    );
  if (props.pass === true)
    return (
      <Badge tone="green" data={{ pass: 'true' }} testId="check-badge">
        ✓ pass
      </Badge>
    );
  if (props.pass === false)
    return (
      <Badge tone="red" data={{ pass: 'false' }} testId="check-badge">
        ✗ fail
      </Badge>
    );
  return (
    <Badge tone="grey" data={{ pass: 'null' }} testId="check-badge" title="Not observable through the interface: never counted as passed">
      ? not observable
    </Badge>
  );
}

function cut(text: string | null, max = 400): string {
  if (text === null) return '(no body)';
  if (text === '') return '(empty body)';
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** The money of a check in one line: the balance before and after, the change and what the rule says. */
function balanceLine(check: CheckResult): string | null {
  const e = check.evidence;
  if (!e || (e.balanceBefore === undefined && e.balanceAfter === undefined)) return null;
  const change = e.delta ? ` (${e.delta}; the rule says ${e.expectedDelta ?? '?'})` : '';
  return `${e.balanceBefore ?? '?'} → ${e.balanceAfter ?? '?'}${change}${e.balanceSource ? `, from the ${e.balanceSource}` : ''}`;
}

/** One check: its verdict and rule; for a failure the evidence (expected against what came back, money, words); its exchanges. */
export function CheckRow(props: { check: CheckResult }) {
  const { check } = props;
  const openId = useDesk((s) => s.openId);
  const outcome = outcomeOfCheck(check);
  return (
    <li
      className={`check-row check-${check.pass === true ? 'pass' : check.pass === false ? 'fail' : 'unobservable'}`}
      data-testid="check-row"
      data-check={check.id}
      data-pass={String(check.pass)}
      data-outcome={outcome}
    >
      <div className="check-line">
        <CheckBadge pass={check.pass} outcome={outcome} />
        <span className="check-title">{check.title}</span>
        {check.rule && (
          <span className="muted small check-rule" data-testid="check-rule" title={check.rule.text}>
            {check.rule.source === 'advice' ? "desk's advice" : `§${check.rule.section}`}
          </span>
        )}
        <span className="spacer" />
        {check.exchangeIds.map((id) => (
          <ExchangeLink
            key={id}
            id={id}
            className={`link check-exchange${id === openId ? ' opened' : ''}`}
            title="Open this step's exchange"
            testId="check-exchange"
          />
        ))}
      </div>
      {check.pass === false && (
        <div className="evidence" data-testid="check-evidence">
          <div className="evidence-grid">
            <span className="label">Expected</span>
            <span data-testid="evidence-expected">{check.expected}</span>
            <span className="label">Actual</span>
            <span data-testid="evidence-actual">
              {check.actual.status === null ? (
                <span className="text-error">no answer{check.actual.error ? `: ${check.actual.error}` : ''}</span>
              ) : (
                <>
                  <strong>{check.actual.status}</strong> <code className="evidence-body">{cut(check.actual.body)}</code>
                </>
              )}
            </span>
            {balanceLine(check) && (
              <>
                <span className="label">Balance</span>
                <span data-testid="evidence-balance">{balanceLine(check)}</span>
              </>
            )}
            {check.evidence?.words && check.evidence.words.length > 0 && (
              <>
                <span className="label">Words</span>
                <span data-testid="evidence-words">{check.evidence.words.map((w) => `“${w}”`).join(', ')}</span>
              </>
            )}
            {check.evidence?.clientSees && (
              <>
                <span className="label">Client sees</span>
                <span data-testid="evidence-client">{check.evidence.clientSees}</span>
              </>
            )}
            {check.reason && (
              <>
                <span className="label">{outcome === 'blocked' ? 'Blocked' : 'Why'}</span>
                <span data-testid="evidence-reason">{check.reason}</span>
              </>
            )}
          </div>
        </div>
      )}
      {check.pass === true && balanceLine(check) && (
        <div className="muted small check-note" data-testid="evidence-balance">
          Balance {balanceLine(check)}
        </div>
      )}
      {check.pass === null && (
        <div className="muted small check-note" data-testid="check-not-observable">
          {check.reason ?? check.expected}
          {check.howToObserve && <> · To observe it: {check.howToObserve}</>}
        </div>
      )}
    </li>
  );
}
