import { useState } from 'react';
import type { DeskError } from '../../../src-main/shared/model';
import { desk } from '../../api';

/**
 * Copy as cURL: the desk writes the command (exact body bytes, signature header included); the
 * command is also shown, so it can be copied by hand when the clipboard is blocked.
 */
export function CurlAction(props: { id: number }) {
  const [command, setCommand] = useState<string | null>(null);
  const [error, setError] = useState<DeskError | null>(null);
  const [copied, setCopied] = useState<'yes' | 'blocked' | null>(null);

  const run = async (): Promise<void> => {
    setError(null);
    setCopied(null);
    const r = await desk.curlFor(props.id);
    if (!r.ok) {
      setCommand(null);
      setError(r.error);
      return;
    }
    setCommand(r.value);
    try {
      await navigator.clipboard.writeText(r.value);
      setCopied('yes');
    } catch {
      setCopied('blocked');
    }
  };

  return (
    <div className="curl-action">
      <button type="button" className="btn btn-small" onClick={() => void run()} data-testid="copy-curl">
        {copied === 'yes' ? 'cURL copied ✓' : 'Copy as cURL'}
      </button>
      {error && (
        <p className="text-error small" role="alert" data-testid="curl-error">
          cURL is not available: {error.message}
        </p>
      )}
      {command !== null && (
        <div className="curl-output">
          {copied === 'blocked' && <p className="muted small">The clipboard is blocked here: select the command and copy it by hand.</p>}
          <pre className="code" data-testid="curl-command">
            {command}
          </pre>
        </div>
      )}
    </div>
  );
}
