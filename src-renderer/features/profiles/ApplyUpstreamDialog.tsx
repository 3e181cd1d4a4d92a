import { ConfirmDialog } from '../../components/Dialog';
import { useDesk } from '../../store';

/** What a running proxy would change to when the newly active profile's upstream is applied. */
export interface UpstreamOffer {
  profile: string;
  upstream: string;
  /** What the proxy forwards to now; null: the sandbox operator answers. */
  current: string | null;
}

/** The same address either way (the status writes a URL with its trailing slash, a profile without). */
function sameUrl(a: string | null, b: string): boolean {
  if (a === null) return false;
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

/**
 * After a switch, the offer to make: the new active profile forwards somewhere the running proxy does
 * not (a running proxy keeps its upstream until told, so a switch alone does not reach it). Null: nothing to ask.
 */
export function upstreamOffer(profile: string): UpstreamOffer | null {
  const state = useDesk.getState();
  const view = state.profiles.find((p) => p.name === profile);
  const proxy = state.status?.proxy;
  if (!view?.upstream || !proxy?.running || sameUrl(proxy.upstream, view.upstream)) return null;
  return { profile, upstream: view.upstream, current: proxy.upstream };
}

/** Asks whether the running proxy should forward to the profile's upstream now; applying keeps its port and requests in flight. */
export function ApplyUpstreamDialog(props: { offer: UpstreamOffer; onDone(): void }) {
  const reconfigure = useDesk((s) => s.reconfigureProxy);
  const { offer } = props;
  return (
    <ConfirmDialog
      title={`Apply “${offer.profile}” to the running proxy?`}
      confirmLabel="Apply to the running proxy"
      onCancel={props.onDone}
      onConfirm={() => {
        props.onDone();
        void reconfigure({ upstream: offer.upstream });
      }}
      testId="apply-upstream-dialog"
    >
      <p>
        The proxy{' '}
        {offer.current ? (
          <>
            forwards to <code>{offer.current}</code>
          </>
        ) : (
          'answers as the sandbox operator'
        )}
        . The profile forwards to <code>{offer.upstream}</code>.
      </p>
      <p>Applying keeps the proxy's port and lets callbacks in flight finish; Cancel leaves it as it is (the profile still verifies the signatures).</p>
    </ConfirmDialog>
  );
}
