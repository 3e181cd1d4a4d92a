import type { ExchangeSummary, Verdict } from '../../src-main/shared/model';
import { errorInWords } from '../../src-main/shared/answered-by';
import { acceptedBadSignature, acceptedBadSignatureText, deskAnswered } from '../../src-main/shared/exchange-warnings';
import { Badge, type Tone } from './Badge';

type Row = Pick<ExchangeSummary, 'direction' | 'error' | 'answeredBy' | 'deskCause'> & {
  signature: { verdict: Verdict | null };
  response: { status: number } | null;
};

/**
 * An HTTP response status, or why there is none. An answer the desk made itself (a fault, the operator
 * could not be reached or did not answer in time, a refusal) reads "desk 502" with its cause as the
 * title, never as the operator's; a fault that withheld the answer reads "desk: none"; a 2XX to a
 * badly signed callback carries the ⚑ marker: the operator accepted what it must refuse.
 */
export function StatusBadge(props: {
  x: Row;
  testId?: string;
  /** Why a 2XX was not an acceptance (its body says it ignored the request). */ notActed?: string | null;
}) {
  const { x } = props;
  const status = x.response?.status ?? null;
  if (deskAnswered(x)) {
    return (
      <Badge tone="purple" title={`Answered by the desk, not the operator: ${x.deskCause ?? ''}`} testId={props.testId} data={{ 'answered-by': 'desk' }}>
        {status === null ? 'desk: none' : `desk ${status}`}
      </Badge>
    );
  }
  if (status === null) {
    if (x.error) {
      return (
        <Badge tone="red" title={errorInWords(x.error)} testId={props.testId}>
          failed
        </Badge>
      );
    }
    return (
      <Badge tone="grey" title="Waiting for the response" testId={props.testId}>
        …
      </Badge>
    );
  }
  const accepted = acceptedBadSignature(x);
  if (accepted) {
    return (
      <Badge tone="red" title={`${acceptedBadSignatureText(accepted)}: it must refuse it`} testId={props.testId} data={{ 'accepted-bad': accepted }}>
        {status} <span aria-label="accepted a bad signature">⚑</span>
      </Badge>
    );
  }
  if (props.notActed) {
    return (
      <Badge tone="amber" title={props.notActed} testId={props.testId} data={{ 'not-acted': 'true' }}>
        {status} <span aria-label="not acted on">⚑ ignored</span>
      </Badge>
    );
  }
  const tone: Tone = status < 300 ? 'green' : status < 500 ? 'amber' : 'red';
  return (
    <Badge tone={tone} testId={props.testId}>
      {status}
    </Badge>
  );
}
