// Undo and redo for the body editor. @codemirror/commands (which has the usual history) is not
// installed, so this keeps whole-document snapshots: bodies are small, and typing within a short
// pause counts as one step, as in most editors.
import { Annotation, type Extension } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';

const fromHistory = Annotation.define<boolean>();
const GROUP_MS = 700;
const MAX_STEPS = 200;

export function snapshotHistory(): Extension {
  const done: string[] = [];
  let undone: string[] = [];
  let lastAt = 0;

  const restore = (view: EditorView, from: string[], to: string[]): boolean => {
    const text = from.pop();
    if (text === undefined) return true;
    to.push(view.state.doc.toString());
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, annotations: fromHistory.of(true), scrollIntoView: true });
    lastAt = 0;
    return true;
  };

  return [
    EditorView.updateListener.of((update) => {
      if (!update.docChanged || update.transactions.some((t) => t.annotation(fromHistory))) return;
      const now = Date.now();
      if (now - lastAt > GROUP_MS || done.length === 0) {
        done.push(update.startState.doc.toString());
        if (done.length > MAX_STEPS) done.shift();
      }
      lastAt = now;
      undone = [];
    }),
    keymap.of([
      { key: 'Mod-z', run: (view) => restore(view, done, undone), preventDefault: true },
      { key: 'Mod-Shift-z', run: (view) => restore(view, undone, done), preventDefault: true },
      { key: 'Mod-y', run: (view) => restore(view, undone, done), preventDefault: true },
    ]),
  ];
}
