// Where a long JSON line may wrap: after a comma, a colon or an opening bracket outside a string, as
// a person would break it, and never inside a short string (an id cut in two reads as two ids). The
// break points are <wbr> widgets, which are not part of the text: what is sent and copied is unchanged.
import type { Range } from '@codemirror/state';
import { Decoration, EditorView, ViewPlugin, WidgetType, type DecorationSet, type ViewUpdate } from '@codemirror/view';

/** Longer strings may still break inside, so that nothing runs off the editor's edge. */
const KEEP_WHOLE = 64;

class BreakPoint extends WidgetType {
  toDOM(): HTMLElement {
    return document.createElement('wbr');
  }
  override eq(): boolean {
    return true;
  }
  override ignoreEvent(): boolean {
    return false;
  }
}

const breakPoint = Decoration.widget({ widget: new BreakPoint(), side: 1 });
const wholeString = Decoration.mark({ class: 'cm-json-whole' });

function decorate(view: EditorView): DecorationSet {
  const ranges: Array<Range<Decoration>> = [];
  for (const { from, to } of view.visibleRanges) {
    // JSON strings cannot hold a raw line break, so each line is scanned on its own.
    for (let pos = from; pos <= to;) {
      const line = view.state.doc.lineAt(pos);
      const text = line.text;
      let stringStart = -1;
      for (let i = 0; i < text.length; i++) {
        const c = text[i];
        if (stringStart >= 0) {
          if (c === '\\') i++;
          else if (c === '"') {
            if (i - stringStart < KEEP_WHOLE) ranges.push(wholeString.range(line.from + stringStart, line.from + i + 1));
            stringStart = -1;
          }
        } else if (c === '"') stringStart = i;
        else if (c === ',' || c === ':' || c === '{' || c === '[') ranges.push(breakPoint.range(line.from + i + 1));
      }
      pos = line.to + 1;
    }
  }
  return Decoration.set(ranges, true);
}

export const jsonWrapPoints = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = decorate(view);
    }
    update(update: ViewUpdate): void {
      if (update.docChanged || update.viewportChanged) this.decorations = decorate(update.view);
    }
  },
  { decorations: (v) => v.decorations },
);
