// The body editor's extensions. The document is the body text exactly: only "\n" separates lines (so
// a "\r" stays a visible character instead of being normalised away), nothing re-formats it, and the
// JSON mode only adds highlighting and the findings as lint markers.
import { json } from '@codemirror/lang-json';
import { bracketMatching, defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter } from '@codemirror/lint';
import { Compartment, EditorSelection, EditorState, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  highlightWhitespace,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { snapshotHistory } from './editor-history';
import { jsonWrapPoints } from './json-wrap';

export type EditorMode = 'json' | 'raw';

export const modeCompartment = new Compartment();

export function modeExtensions(mode: EditorMode): Extension {
  // Raw mode shows every space and tab: what matters when the exact bytes are the point.
  return mode === 'json' ? [json(), bracketMatching(), jsonWrapPoints] : [highlightWhitespace()];
}

/** Enter keeps the current line's indentation; Tab indents by two spaces (no focus trap: Escape then Tab leaves). */
const editingKeys = keymap.of([
  {
    key: 'Enter',
    run: (view) => {
      const { state } = view;
      view.dispatch(
        state.changeByRange((range) => {
          const line = state.doc.lineAt(range.from);
          const indent = /^[ \t]*/.exec(line.text)?.[0] ?? '';
          const insert = `\n${indent}`;
          return { changes: { from: range.from, to: range.to, insert }, range: EditorSelection.cursor(range.from + insert.length) };
        }),
        { scrollIntoView: true, userEvent: 'input' },
      );
      return true;
    },
  },
  {
    key: 'Tab',
    run: (view) => {
      view.dispatch(view.state.replaceSelection('  '), { userEvent: 'input' });
      return true;
    },
  },
  {
    key: 'Mod-a',
    run: (view) => {
      view.dispatch({ selection: { anchor: 0, head: view.state.doc.length } });
      return true;
    },
  },
]);

export function editorExtensions(mode: EditorMode, onText: (text: string) => void): Extension {
  return [
    EditorState.lineSeparator.of('\n'),
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    drawSelection(),
    highlightActiveLine(),
    EditorView.lineWrapping,
    syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
    lintGutter(),
    snapshotHistory(),
    editingKeys,
    modeCompartment.of(modeExtensions(mode)),
    EditorView.contentAttributes.of({ 'aria-label': 'Request body', spellcheck: 'false', autocorrect: 'off', autocapitalize: 'off' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onText(update.state.doc.toString());
    }),
  ];
}
