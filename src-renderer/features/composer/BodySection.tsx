import { useState } from 'react';
import type { Finding } from '../../../src-main/shared/model';
import { describeInvisibles } from '../../components/body';
import { formatBytes } from '../../components/format';
import { BodyEditor, type BodyEditorHandle } from './BodyEditor';
import { base64ToBytes, byteLengthOfText, isBase64 } from '../../components/body-codec';
import type { EditorMode } from './editor-setup';
import { FindingsList } from './FindingsList';

interface Props {
  generation: number;
  text: string | null;
  base64: string;
  findings: readonly Finding[];
  findingsPending: boolean;
  /** False until the desk has inspected the draft once. */
  findingsKnown: boolean;
  onText(text: string): void;
  onBase64(base64: string): void;
}

/**
 * The body: a JSON editor (highlighting, findings at their fields) or the raw view of the same text
 * with every space, tab and carriage return visible. Both edit the exact bytes; a body that is not
 * UTF-8 is edited as base64.
 */
export function BodySection(props: Props) {
  const [mode, setMode] = useState<EditorMode>('json');
  const [handle, setHandle] = useState<BodyEditorHandle | null>(null);
  const [b64, setB64] = useState(props.base64);

  if (props.text === null) {
    const valid = isBase64(b64);
    return (
      <div className="body-section" data-testid="body-section" data-mode="base64">
        <div className="body-toolbar">
          <span className="label">Body</span>
          <span className="muted small">{formatBytes(base64ToBytes(props.base64).length)} · not valid UTF-8: edited as base64</span>
        </div>
        <textarea
          className="input code base64-editor"
          value={b64}
          spellCheck={false}
          onChange={(e) => {
            setB64(e.target.value);
            if (isBase64(e.target.value)) props.onBase64(e.target.value.replace(/\s+/g, ''));
          }}
          data-testid="body-base64"
        />
        {!valid && <p className="text-error small">Not valid base64: the last valid bytes are kept.</p>}
        <FindingsList findings={props.findings} pending={props.findingsPending} known={props.findingsKnown} />
      </div>
    );
  }

  const invisibles = describeInvisibles(props.text);
  const tab = (m: EditorMode, label: string, title: string) => (
    <button
      type="button"
      role="tab"
      aria-selected={mode === m}
      className={mode === m ? 'tab tab-active' : 'tab'}
      onClick={() => setMode(m)}
      title={title}
      data-testid={`body-mode-${m}`}
    >
      {label}
    </button>
  );
  return (
    <div className="body-section" data-testid="body-section" data-mode={mode}>
      <div className="body-toolbar">
        <div className="tabs" role="tablist">
          {tab('json', 'JSON', 'Highlighted, with the findings at their fields')}
          {tab('raw', 'Raw bytes', 'The same text with every space, tab and line ending visible')}
        </div>
        <span className="muted small" data-testid="body-size">
          {formatBytes(byteLengthOfText(props.text))} exactly as sent, never re-formatted
          {invisibles.length > 0 && ` · ${invisibles.join(', ')}`}
        </span>
      </div>
      <BodyEditor
        key={props.generation}
        initialText={props.text}
        mode={mode}
        findings={props.findings}
        onChange={props.onText}
        handleRef={setHandle}
        testId="body-editor"
      />
      <FindingsList findings={props.findings} pending={props.findingsPending} known={props.findingsKnown} onPick={(f) => handle?.reveal(f)} />
    </div>
  );
}
