import type { ExchangeDetail } from '../../../src-main/shared/model';
import { isFaultNote } from '../../../src-main/shared/answered-by';
import { Badge } from '../../components/Badge';
import { HeaderTable } from '../../components/HeaderTable';
import { Section } from '../../components/Section';
import { formatBytes } from '../../components/format';
import { BodyView } from './BodyView';

export function RequestSection(props: { detail: ExchangeDetail }) {
  const { request, target, remoteAddress, findings, scheme } = props.detail;
  const line = `${request.method} ${target ?? request.path}${request.query ? `?${request.query}` : ''}`;
  return (
    <Section
      title="Request"
      aside={request.truncated ? <Badge tone="amber">truncated: {formatBytes(request.size)} received</Badge> : undefined}
      testId="request-section"
    >
      <div className="request-line code" data-testid="request-line">
        {line}
      </div>
      {remoteAddress && (
        <p className="muted small" data-testid="request-origin">
          from {remoteAddress}
          {scheme ? ` over ${scheme === 'https' ? 'HTTPS' : 'HTTP'}` : ''}
        </p>
      )}
      <HeaderTable headers={request.headers} testId="request-headers" />
      {/* A fault's note is about the answer, not the body: the Response section shows it. */}
      <BodyView bodyBase64={request.bodyBase64} findings={findings.filter((f) => !isFaultNote(f))} testId="request-body" />
    </Section>
  );
}
