import type { ExchangeDetail } from '../../../src-main/shared/model';
import { Section } from '../../components/Section';
import { formatDateTime, formatDuration, originLabel } from '../../components/format';
import { ExchangeLink } from '../../components/ExchangeLink';

/** When it happened, where it came from, and what was made from it (replays, follow-ups). */
export function RelatedSection(props: { detail: ExchangeDetail }) {
  const d = props.detail;
  return (
    <Section title="Timing and related exchanges" testId="related-section">
      <dl className="facts">
        <dt>Started</dt>
        <dd>{formatDateTime(d.at)}</dd>
        <dt>Completed</dt>
        <dd>{formatDateTime(d.completedAt)}</dd>
        <dt>Duration</dt>
        <dd data-testid="duration">{formatDuration(d.durationMs)}</dd>
        <dt>Origin</dt>
        <dd>
          {originLabel(d.origin)} ({d.direction})
        </dd>
        {d.sourceId !== null && (
          <>
            <dt>Derived from</dt>
            <dd>
              <ExchangeLink id={d.sourceId} testId="exchange-link" />
            </dd>
          </>
        )}
        <dt>Derived exchanges</dt>
        <dd data-testid="derived">
          {d.derivedIds.length === 0 ? (
            <span className="muted">none yet (replays and follow-ups of this exchange appear here)</span>
          ) : (
            d.derivedIds.map((id) => (
              <span key={id} className="derived-link">
                <ExchangeLink id={id} testId="exchange-link" />
              </span>
            ))
          )}
        </dd>
        {d.tags.length > 0 && (
          <>
            <dt>Tags</dt>
            <dd>{d.tags.join(', ')}</dd>
          </>
        )}
      </dl>
    </Section>
  );
}
