import { desk } from '../../api';
import { useCopyCommand } from '../../components/use-copy-command';

/**
 * Copy as cURL: the desk writes the command (exact body bytes, signature header included); the
 * command is also shown, so it can be copied by hand when the clipboard is blocked.
 */
export function CurlAction(props: { id: number }) {
  const { command, error, copied, run } = useCopyCommand(() => desk.curlFor(props.id));

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
