import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { Finding } from '../../../src-main/shared/model';
import { editorExtensions, modeCompartment, modeExtensions, type EditorMode } from './editor-setup';
import { placeFindingsInText } from './json-ranges';

export interface BodyEditorHandle {
  /** Puts the cursor on a finding's field and scrolls it into view. */
  reveal(finding: Finding): void;
}

interface Props {
  /** The text the editor starts with; later changes come from the editor itself. */
  initialText: string;
  mode: EditorMode;
  findings: readonly Finding[];
  onChange(text: string): void;
  handleRef?: (handle: BodyEditorHandle | null) => void;
  testId: string;
}

/**
 * CodeMirror over the body text. It owns the text while it is open (the parent remounts it, by key,
 * to load another draft), reports every change, and shows the desk's findings at their fields.
 */
export function BodyEditor({ initialText, mode, findings, onChange, handleRef, testId }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latestOnChange = useRef(onChange);
  latestOnChange.current = onChange;

  useEffect(() => {
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({ doc: initialText, extensions: editorExtensions(mode, (t) => latestOnChange.current(t)) }),
    });
    view.current = v;
    handleRef?.({
      reveal(finding) {
        const placed = placeFindingsInText(v.state.doc.toString(), [finding])[0];
        if (!placed) return;
        v.dispatch({ selection: { anchor: placed.from, head: placed.to }, scrollIntoView: true });
        v.focus();
      },
    });
    return () => {
      handleRef?.(null);
      v.destroy();
      view.current = null;
    };
    // Created once per mount: the initial text and mode are read here only; later modes reconfigure below.
  }, []);

  useEffect(() => {
    view.current?.dispatch({ effects: modeCompartment.reconfigure(modeExtensions(mode)) });
  }, [mode]);

  useEffect(() => {
    const v = view.current;
    if (!v) return;
    // Findings are placed on the text as it is now: paths survive edits that move the fields.
    const diagnostics: Diagnostic[] = placeFindingsInText(v.state.doc.toString(), findings).map(({ finding, from, to }) => ({
      from,
      to,
      severity: finding.level,
      message: `${finding.path}: ${finding.message}`,
      source: 'protocol',
    }));
    v.dispatch(setDiagnostics(v.state, diagnostics));
  }, [findings]);

  return <div ref={host} className={`body-editor body-editor-${mode}`} data-testid={testId} data-mode={mode} />;
}
