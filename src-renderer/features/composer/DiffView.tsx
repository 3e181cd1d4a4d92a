import type { DeskError, DiffEntry } from '../../../src-main/shared/model';

const AREA_TITLES: Record<string, string> = {
  request: 'Request line',
  body: 'Body fields',
  header: 'Headers',
  signature: 'Signature',
  status: 'Response status',
  'response-body': 'Response body fields',
};
const ORDER = ['request', 'body', 'header', 'signature', 'status', 'response-body'];

function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** What changed between the source and the new exchange, by area: body fields, headers, signature, responses. */
export function DiffView(props: {
  entries: DiffEntry[] | null;
  error: DeskError | null;
  before: string;
  after: string;
  none?: string;
  testId?: string;
  entryTestId?: string;
}) {
  if (props.error) return <p className="text-error small">The comparison failed: {props.error.message}</p>;
  if (props.entries === null) return <p className="muted small">Comparing…</p>;
  if (props.entries.length === 0)
    return (
      <p className="muted" data-testid="diff-none">
        {props.none ?? 'No difference at all.'}
      </p>
    );
  const present = new Set(props.entries.map((e) => e.area));
  const areas = [...ORDER.filter((a) => present.has(a)), ...[...present].filter((a) => !ORDER.includes(a))];
  return (
    <table className="table diff-table" data-testid={props.testId ?? 'diff-table'}>
      <thead>
        <tr>
          <th>Where</th>
          <th>{props.before}</th>
          <th>{props.after}</th>
        </tr>
      </thead>
      {areas.map((area) => (
        <tbody key={area}>
          <tr className="diff-area">
            <th colSpan={3}>{AREA_TITLES[area] ?? area}</th>
          </tr>
          {props
            .entries!.filter((e) => e.area === area)
            .map((e, i) => (
              <tr key={i} data-testid={props.entryTestId ?? 'diff-entry'} data-area={e.area} data-path={e.path}>
                <td className="mono">{e.path}</td>
                <td className="mono diff-before">{shown(e.before)}</td>
                <td className="mono diff-after">{shown(e.after)}</td>
              </tr>
            ))}
        </tbody>
      ))}
    </table>
  );
}
