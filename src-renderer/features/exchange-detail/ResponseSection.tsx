import type { ExchangeDetail } from '../../../src-main/shared/model';
import { HeaderTable } from '../../components/HeaderTable';
import { Section } from '../../components/Section';
import { StatusBadge } from '../../components/StatusBadge';
import { BodyView } from './BodyView';

export function ResponseSection(props: { detail: ExchangeDetail }) {
  const { response, error } = props.detail;
  return (
    <Section title="Response" aside={<StatusBadge x={props.detail} />} testId="response-section">
      {response ? (
        <>
          <HeaderTable headers={response.headers} testId="response-headers" />
          <BodyView bodyBase64={response.bodyBase64} testId="response-body" />
        </>
      ) : error ? (
        <p className="text-error" data-testid="response-error">
          No response: {error}
        </p>
      ) : (
        <p className="muted">Waiting for the response…</p>
      )}
    </Section>
  );
}
