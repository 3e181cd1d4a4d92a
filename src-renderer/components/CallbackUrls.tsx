import type { CallbackUrls as Urls } from '../../src-main/shared/model';
import { CopyButton } from './CopyButton';

/** The exact callback URLs to configure in the platform, each with a copy button. */
export function CallbackUrls(props: { urls: Urls; testId: string }) {
  const { urls } = props;
  return (
    <div className="callback-urls" data-testid={props.testId}>
      {(['pay', 'results'] as const).map((kind) => (
        <span key={kind} className="callback-url">
          <code data-testid={`${props.testId}-${kind}`}>{urls[kind]}</code>
          <CopyButton text={urls[kind]} label={`Copy ${kind} URL`} testId={`${props.testId}-copy-${kind}`} />
        </span>
      ))}
    </div>
  );
}
