import { useEffect, useState } from 'react';
import type { Timeline, TimelineFlag } from '../../../src-main/shared/model';
import { FLAG_TITLES, NOTHING_UNUSUAL } from '../../components/flag-titles';
import { Badge } from '../../components/Badge';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { SplitPane } from '../../components/SplitPane';
import { ExchangeLink } from '../../components/ExchangeLink';
import { StatusBadge } from '../../components/StatusBadge';
import { VerdictBadge } from '../../components/VerdictBadge';
import { formatAmount, formatDateTime, formatTime, kindLabel, originLabel } from '../../components/format';
import { useDesk } from '../../store';
import { useMinorUnits } from '../profiles/use-active-profile';
import { ExchangeDetailPane } from '../exchange-detail/ExchangeDetailPane';
import { DepositExportActions } from '../export/DepositExportActions';

function flagsByExchange(t: Timeline): Map<number, TimelineFlag[]> {
  const map = new Map<number, TimelineFlag[]>();
  for (const f of t.flags) for (const id of f.exchangeIds) map.set(id, [...(map.get(id) ?? []), f.flag]);
  return map;
}

function TimelineEntries(props: { timeline: Timeline }) {
  const openId = useDesk((s) => s.openId);
  const openExchange = useDesk((s) => s.openExchange);
  const minorUnits = useMinorUnits();
  const flagged = flagsByExchange(props.timeline);
  return (
    <ol className="timeline" data-testid="timeline-entries">
      {props.timeline.entries.map((x) => {
        const flags = flagged.get(x.id) ?? [];
        return (
          <li
            key={x.id}
            className={`timeline-entry${x.id === openId ? ' opened' : ''}${flags.length > 0 ? ' flagged' : ''} dir-${x.direction}`}
            onClick={() => void openExchange(x.id)}
            data-testid="timeline-entry"
            data-id={x.id}
          >
            <div className="timeline-dot" aria-hidden="true" />
            <div className="timeline-card">
              <div className="timeline-line">
                <span className="mono muted" title={formatDateTime(x.at)}>
                  {formatTime(x.at)}
                </span>
                <strong className={`kind kind-${x.kind}`}>{kindLabel(x)}</strong>
                <span className="muted small">
                  #{x.id} · {originLabel(x.origin)}
                  {x.sourceId !== null && (
                    <>
                      {' of '}
                      {/* The source may be filed under another deposit (the replay changed the depositId): the link opens it. */}
                      <span onClick={(e) => e.stopPropagation()}>
                        <ExchangeLink id={x.sourceId} testId="timeline-source" />
                      </span>
                    </>
                  )}
                </span>
                <span className="spacer" />
                <span className="num">{formatAmount(x.amount, x.currency, minorUnits)}</span>
                <VerdictBadge verdict={x.signature.verdict} />
                <StatusBadge x={x} />
              </div>
              {x.answeredBy === 'desk' && (
                <div className="timeline-desk small" data-testid="timeline-desk-cause">
                  Answered by the desk, not the operator: {x.deskCause}
                </div>
              )}
              {flags.length > 0 && (
                <div className="timeline-flags">
                  {flags.map((f) => (
                    <Badge key={f} tone={f === 'accepted-bad-signature' ? 'red' : 'amber'}>
                      ⚑ {FLAG_TITLES[f]}
                    </Badge>
                  ))}
                </div>
              )}
            </div>
          </li>
        );
      })}
    </ol>
  );
}

/** One deposit's story in order: pay, results, replays, sandbox answers, with what looks wrong flagged. */
export function TimelineView() {
  const depositId = useDesk((s) => s.timelineDepositId);
  const timeline = useDesk((s) => s.timeline);
  const loading = useDesk((s) => s.timelineLoading);
  const error = useDesk((s) => s.timelineError);
  const showTimeline = useDesk((s) => s.showTimeline);
  const reload = useDesk((s) => s.reloadTimeline);
  const [input, setInput] = useState(depositId ?? '');
  useEffect(() => setInput(depositId ?? ''), [depositId]);

  return (
    <SplitPane
      id="timeline"
      testId="timeline-view"
      minLeft={420}
      minRight={400}
      left={
        <>
          <form
            className="filters"
            onSubmit={(e) => {
              e.preventDefault();
              if (input.trim()) void showTimeline(input.trim());
            }}
          >
            <input
              className="input search"
              placeholder="depositId"
              value={input}
              onChange={(e) => setInput(e.target.value)}
              aria-label="depositId"
              data-testid="timeline-input"
            />
            <button type="submit" className="btn btn-small btn-primary">
              Show timeline
            </button>
          </form>
          <ErrorBanner error={error} context="Could not load the timeline" onRetry={() => void reload()} testId="timeline-error" />
          <div className="timeline-scroll">
            {depositId === null ? (
              <EmptyState title="Follow one deposit" testId="timeline-empty">
                <p>Enter a depositId above, or open a capture and choose “Deposit timeline”.</p>
                <p className="muted">
                  The timeline lists every exchange of that deposit in order (the pay, its results, replays and sandbox answers) and flags duplicates, results
                  without a pay, conflicting outcomes, amounts that differ from the pay and badly signed callbacks the operator accepted. A replay is filed
                  under the deposit its body names.
                </p>
              </EmptyState>
            ) : !timeline ? (
              loading && <p className="muted pad">Loading…</p>
            ) : (
              <div data-testid="timeline" data-deposit={timeline.depositId}>
                <div className="timeline-head">
                  <h3 className="timeline-title">
                    Deposit <code>{timeline.depositId}</code>{' '}
                    <span className="muted small">
                      {timeline.entries.length} exchange{timeline.entries.length === 1 ? '' : 's'}
                    </span>
                  </h3>
                  {timeline.entries.length > 0 && <DepositExportActions depositId={timeline.depositId} />}
                </div>
                {timeline.entries.length === 0 ? null : timeline.flags.length === 0 ? (
                  <p className="flag-ok" data-testid="timeline-ok">
                    ✓ {NOTHING_UNUSUAL}
                  </p>
                ) : (
                  <ul className="flag-list" data-testid="timeline-flags">
                    {timeline.flags.map((f) => (
                      <li
                        key={f.flag}
                        data-flag={f.flag}
                        data-testid="timeline-flag"
                        className={f.flag === 'accepted-bad-signature' ? 'flag-danger' : undefined}
                      >
                        <strong>⚑ {FLAG_TITLES[f.flag]}.</strong> {f.message}{' '}
                        <span className="muted small">({f.exchangeIds.map((id) => `#${id}`).join(', ')})</span>
                      </li>
                    ))}
                  </ul>
                )}
                {timeline.entries.length === 0 ? <NoEntries timeline={timeline} /> : <TimelineEntries timeline={timeline} />}
              </div>
            )}
          </div>
        </>
      }
      right={<ExchangeDetailPane />}
    />
  );
}

/** An empty timeline says whose the deposit is when another profile has it (a deposit id under two profiles is two deposits). */
function NoEntries(props: { timeline: Timeline }) {
  const { profile, otherProfiles } = props.timeline;
  const under = profile === null ? '' : ` of profile ${profile}`;
  if (!otherProfiles || otherProfiles.length === 0) return <p className="muted">No exchange{under} carries this depositId.</p>;
  const whose = otherProfiles.map((p) => (p === null ? 'the unassigned captures' : `profile ${p}`)).join(' and ');
  return (
    <p className="flag-list" data-testid="timeline-elsewhere">
      No exchange{under} carries this depositId: it is {whose}’s. Open it there: make that profile active, or choose it in the list’s “All profiles” and open a
      capture.
    </p>
  );
}
