import { useEffect, useState } from 'react';
import { writeClipboard } from './clipboard';

/**
 * Copies text to the clipboard and says whether it worked. The clipboard can be unavailable (no
 * permission, an insecure context): then it says so and the caller's visible text can be selected.
 */
export function CopyButton(props: { text: string | (() => Promise<string | null>); label?: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  // "Copied" is feedback for the click, not a lasting state.
  useEffect(() => {
    if (state !== 'copied') return;
    const t = setTimeout(() => setState('idle'), 2_000);
    return () => clearTimeout(t);
  }, [state]);
  const copy = async (): Promise<void> => {
    const text = typeof props.text === 'string' ? props.text : await props.text();
    if (text === null) return;
    setState((await writeClipboard(text)) ? 'copied' : 'failed');
  };
  return (
    <button type="button" className="btn btn-small" onClick={() => void copy()} data-testid={props.testId} data-copy-state={state}>
      {state === 'copied' ? 'Copied ✓' : state === 'failed' ? 'Copy blocked: select and copy by hand' : (props.label ?? 'Copy')}
    </button>
  );
}
