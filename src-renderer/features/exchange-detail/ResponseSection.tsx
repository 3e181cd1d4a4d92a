import type { ExchangeDetail } from '../../../src-main/shared/model';
import { faultNoteOf } from '../../../src-main/shared/answered-by';
import { deskAnswerText } from '../../../src-main/shared/exchange-warnings';
import { HeaderTable } from '../../components/HeaderTable';
import { Section } from '../../components/Section';
import { StatusBadge } from '../../components/StatusBadge';
import { BodyView } from './BodyView';

/** The answer, and who made it: the desk's own answers (a fault, a refusal, an unreachable operator) say so and why. */
export function ResponseSection(props: { detail: ExchangeDetail }) {
  const { response, error } = props.detail;
  const deskAnswer = deskAnswerText(props.detail);
  const fault = faultNoteOf(props.detail.findings);
  return (
    <Section title="Response" aside={<StatusBadge x={props.detail} />} testId="response-section">
      {deskAnswer && (
        <p className="desk-answer" data-testid="response-desk-answer" data-answered-by="desk">
          {deskAnswer}
        </p>
      )}
      {fault && (
        <p className="muted small" data-testid="response-fault-note">
          {fault}
        </p>
      )}
      {response ? (
        <>
          <HeaderTable headers={response.headers} testId="response-headers" />
          <BodyView bodyBase64={response.bodyBase64} testId="response-body" />
        </>
      ) : error && !deskAnswer ? (
        <p className="text-error" data-testid="response-error">
          No response: {error}
        </p>
      ) : (
        <p className="muted">Waiting for the response…</p>
      )}
    </Section>
  );
}
