import { EmptyState } from '../../components/EmptyState';

/**
 * The whole page when the desk refuses it: why (`detail`), then what to do, said once, and how an
 * exchange's link (`wager-desk show` prints #/exchange/ID) opens with the token.
 */
export function AccessNeeded(props: { detail: string | null }) {
  return (
    <div className="access-needed" data-testid="access-needed">
      <EmptyState title="This page needs the desk's access token">
        <p>{props.detail ?? 'The desk refused this page.'}</p>
        <p data-testid="access-how">
          In the terminal where you ran <code>wager-desk serve</code>, find the line that starts with <code>ui:</code> and open that address: it ends with{' '}
          <code>#token=…</code>.
        </p>
        <p data-testid="access-link">
          An exchange&apos;s link (<code>…/#/exchange/42</code>, as <code>wager-desk show</code> prints it) opens with the token added after it:{' '}
          <code>…/#/exchange/42&amp;token=…</code>, the token being the part after <code>#token=</code> on that line. Or open that address first: the link then
          opens in the same tab.
        </p>
      </EmptyState>
    </div>
  );
}
