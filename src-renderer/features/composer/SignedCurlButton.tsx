import type { Draft, SendOptions } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { CopyButton } from '../../components/CopyButton';
import { Dialog } from '../../components/Dialog';
import { useCopyCommand } from '../../components/use-copy-command';

/**
 * "Copy as signed cURL": the draft as the send would go out (target, exact bytes, the signature the
 * chosen mode yields). The command carries the signature, never a secret.
 */
export function SignedCurlButton(props: { draft: Draft; options: () => SendOptions }) {
  const { command, error, copied, run, dismiss } = useCopyCommand(() => desk.curlForDraft(props.draft, props.options()));
  return (
    <>
      <button type="button" className="btn" onClick={() => void run()} data-testid="copy-signed-curl">
        Copy as signed cURL
      </button>
      {error && (
        <span className="text-error small" role="alert" data-testid="signed-curl-error">
          {error.message}
        </span>
      )}
      {command !== null && (
        <Dialog wide title="Signed cURL command" onClose={dismiss} testId="signed-curl-dialog" actions={<CopyButton text={command} label="Copy again" />}>
          <p className="muted small">
            {copied === 'yes'
              ? 'Copied to the clipboard. '
              : copied === 'blocked'
                ? 'The clipboard is blocked here: select the command and copy it by hand. '
                : ''}
            It sends these exact bytes with the signature shown; running it sends for real.
          </p>
          <pre className="code" data-testid="signed-curl-command">
            {command}
          </pre>
        </Dialog>
      )}
    </>
  );
}
