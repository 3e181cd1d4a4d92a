import { useMemo, useState } from 'react';
import type { Finding } from '../../../src-main/shared/model';
import { HexDump } from '../../components/HexDump';
import { JsonView } from '../../components/JsonView';
import { formatBytes } from '../../components/format';
import { decodeBody, describeInvisibles } from '../../components/body';

type Mode = 'json' | 'raw' | 'hex';

/** Formatted JSON tree beyond this size would cost more than it helps; raw text stays available. */
const MAX_FORMATTED_BYTES = 256 * 1024;

/**
 * A body three ways: formatted JSON (with findings at their fields), the raw text exactly as sent,
 * and a hex dump (the only view for bytes that are not UTF-8).
 */
export function BodyView(props: { bodyBase64: string; findings?: readonly Finding[]; testId: string }) {
  const body = useMemo(() => decodeBody(props.bodyBase64), [props.bodyBase64]);
  const canFormat = body.json?.ok === true && body.bytes.length <= MAX_FORMATTED_BYTES;
  const [chosen, setChosen] = useState<Mode | null>(null);
  const mode: Mode = chosen ?? (body.text === null ? 'hex' : canFormat ? 'json' : 'raw');

  if (body.bytes.length === 0)
    return (
      <p className="muted" data-testid={props.testId}>
        Empty body.
      </p>
    );

  const invisibles = body.text === null ? [] : describeInvisibles(body.text);
  const tab = (m: Mode, label: string, enabled: boolean) => (
    <button
      type="button"
      role="tab"
      aria-selected={mode === m}
      className={mode === m ? 'tab tab-active' : 'tab'}
      disabled={!enabled}
      onClick={() => setChosen(m)}
      data-testid={`${props.testId}-tab-${m}`}
    >
      {label}
    </button>
  );

  return (
    <div className="body-view" data-testid={props.testId} data-mode={mode}>
      <div className="body-toolbar">
        <div className="tabs" role="tablist">
          {tab('json', 'Formatted JSON', canFormat)}
          {tab('raw', 'Raw text', body.text !== null)}
          {tab('hex', 'Hex', true)}
        </div>
        <span className="muted small">
          {formatBytes(body.bytes.length)}
          {body.text === null && ' · not valid UTF-8'}
          {body.json?.ok === false && ` · not JSON: ${body.json.reason}`}
          {invisibles.length > 0 && ` · ${invisibles.join(', ')}`}
        </span>
      </div>
      {mode === 'json' && body.json?.ok === true && <JsonView value={body.json.value} findings={props.findings ?? []} testId={`${props.testId}-json`} />}
      {mode === 'raw' && body.text !== null && (
        <pre className="code raw-body" data-testid={`${props.testId}-raw`}>
          {body.text}
        </pre>
      )}
      {mode === 'hex' && <HexDump bytes={body.bytes} testId={`${props.testId}-hex`} />}
    </div>
  );
}
