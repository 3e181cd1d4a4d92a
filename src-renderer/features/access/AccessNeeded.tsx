import { EmptyState } from '../../components/EmptyState';

/** The whole page when the desk refuses it: one clear instruction instead of an error in every panel. */
export function AccessNeeded(props: { detail: string | null }) {
  return (
    <div className="access-needed" data-testid="access-needed">
      <EmptyState title="This page needs the desk's access token">
        <p>{props.detail ?? 'The desk refused this page.'}</p>
        <p>
          In the terminal where you ran <code>wager-desk serve</code>, find the line that starts with <code>ui:</code> and open that address. It ends with{' '}
          <code>#token=…</code>; the token is new on every run, so an address from an earlier run no longer works.
        </p>
      </EmptyState>
    </div>
  );
}
