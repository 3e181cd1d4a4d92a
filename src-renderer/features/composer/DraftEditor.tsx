import { useCallback, useMemo, useRef, useState } from 'react';
import { SIGNATURE_HEADER, type DeskError, type Finding } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { useDesk } from '../../store';
import { useActiveProfile } from '../profiles/use-active-profile';
import { textOfBase64 } from '../../components/body-codec';
import { BodySection } from './BodySection';
import { DiffView } from './DiffView';
import { draftDiff } from './draft-diff';
import { HeadersEditor } from './HeadersEditor';
import { SignaturePanel } from './SignaturePanel';
import { SignedCurlButton } from './SignedCurlButton';
import { ProductionConfirm } from './ProductionConfirm';
import { TargetPicker, targetUrlOf } from './TargetPicker';
import { useDebouncedAsk } from './use-debounced';
import { signatureEditOf } from '../../store/composer-slice';

/**
 * The request being composed: target, request line, headers, body with live findings, signature mode
 * with its resulting header, and Send. A production profile's confirmation names the target first.
 */
export function DraftEditor() {
  const draft = useDesk((s) => s.composerDraft)!;
  const diffRef = useRef<HTMLElement>(null);
  const text = useDesk((s) => s.composerText);
  const generation = useDesk((s) => s.composerGeneration);
  const mode = useDesk((s) => s.composerSignature);
  const target = useDesk((s) => s.composerTarget);
  const sending = useDesk((s) => s.composerSending);
  const setText = useDesk((s) => s.setComposerText);
  const setBase64 = useDesk((s) => s.setComposerBase64);
  const setRequest = useDesk((s) => s.setComposerRequest);
  const setMode = useDesk((s) => s.setComposerSignature);
  const setTarget = useDesk((s) => s.setComposerTarget);
  const sendOptions = useDesk((s) => s.composerSendOptions);
  const send = useDesk((s) => s.sendComposer);
  const loadedDraft = useDesk((s) => s.composerLoaded);
  const origin = useDesk((s) => s.composerOrigin);
  const active = useActiveProfile();
  const profile = active.profile;

  // The custom secret stays in this component (never in the store, never in an attribute); the
  // version only tells the preview to ask again.
  const customSecret = useRef('');
  const [secretVersion, setSecretVersion] = useState(0);
  const [confirm, setConfirm] = useState<string | null>(null);

  const findings = useDebouncedAsk<{ findings: Finding[]; error: DeskError | null }>(async () => {
    const r = await desk.inspectDraft(draft);
    return r.ok ? { findings: r.value, error: null } : { findings: [], error: r.error };
  }, [draft.path, draft.bodyBase64]);

  const signatureHeader = draft.headers.find(([n]) => n.toLowerCase() === SIGNATURE_HEADER)?.[1] ?? null;
  const preview = useDebouncedAsk<{ value: string | null; error: DeskError | null }>(
    async () => {
      const r = await desk.previewSignature(draft, mode, sendOptions(customSecret.current));
      return r.ok ? { value: r.value, error: null } : { value: null, error: r.error };
    },
    [draft.bodyBase64, mode, signatureHeader, secretVersion, profile?.name, profile?.secret.fingerprint],
    150,
  );

  const doSend = useCallback(
    async (confirmedProduction: boolean) => {
      const outcome = await send({ customSecret: customSecret.current, confirmedProduction });
      if (outcome.status === 'confirm') setConfirm(outcome.message);
    },
    [send],
  );

  const targetUrl = targetUrlOf(target, profile);
  const pendingDiff = useMemo(
    () => (loadedDraft ? draftDiff(loadedDraft, draft, textOfBase64(loadedDraft.bodyBase64), text ?? textOfBase64(draft.bodyBase64)) : []),
    [loadedDraft, draft, text],
  );
  const sourceName =
    origin?.kind === 'capture'
      ? `#${origin.id} (source)`
      : origin?.kind === 'follow-up'
        ? `${origin.result} of #${origin.payId}, as built`
        : 'template, as loaded';

  return (
    <div className="draft-editor" data-testid="draft-editor">
      <section className="composer-block">
        <h4 className="block-title">Send to</h4>
        <TargetPicker value={target} onChange={setTarget} active={active} testId="composer-target" />
      </section>
      <section className="composer-block">
        <h4 className="block-title">Request</h4>
        <div className="request-line-editor">
          <input
            className="input mono method"
            value={draft.method}
            onChange={(e) => setRequest({ method: e.target.value })}
            aria-label="Method"
            data-testid="draft-method"
          />
          <input
            className="input mono grow"
            value={draft.path}
            spellCheck={false}
            onChange={(e) => setRequest({ path: e.target.value })}
            aria-label="Path"
            data-testid="draft-path"
          />
        </div>
        <HeadersEditor headers={draft.headers} onChange={(headers) => setRequest({ headers })} />
      </section>
      <section className="composer-block">
        <BodySection
          generation={generation}
          text={text}
          base64={draft.bodyBase64}
          findings={findings.value?.findings ?? []}
          findingsPending={findings.pending}
          findingsKnown={findings.value !== null}
          onText={setText}
          onBase64={setBase64}
        />
        {findings.value?.error && <p className="text-error small">{findings.value.error.message}</p>}
      </section>
      <section className="composer-block" data-testid="composer-signature-block">
        <h4 className="block-title" data-testid="composer-signature-title">
          Signature
        </h4>
        <SignaturePanel
          mode={mode}
          onMode={(m) => {
            // The custom secret input goes away with its mode: so does what was typed in it.
            customSecret.current = '';
            setSecretVersion((v) => v + 1);
            setMode(m);
          }}
          onCustomSecret={(s) => {
            customSecret.current = s;
            setSecretVersion((v) => v + 1);
          }}
          preview={{ pending: preview.pending, known: preview.value !== null, value: preview.value?.value ?? null, error: preview.value?.error ?? null }}
          byHand={signatureEditOf(draft, loadedDraft) !== null}
        />
      </section>
      <section className="composer-block" ref={diffRef} data-testid="pending-diff" data-count={pendingDiff.length}>
        <h4 className="block-title">What Send changes</h4>
        <DiffView
          entries={pendingDiff}
          error={null}
          before={sourceName}
          after="to send"
          none="Nothing edited: Send sends the request as loaded (the signature follows the mode above)."
          testId="pending-diff-table"
          entryTestId="pending-diff-entry"
        />
      </section>
      <div className="composer-actions">
        <button
          type="button"
          className="btn btn-primary btn-large"
          disabled={sending || targetUrl === null}
          title={targetUrl === null ? 'Choose where to send: the profile needs an operator URL, or type one' : undefined}
          onClick={() => void doSend(false)}
          data-testid="composer-send"
        >
          {sending ? 'Sending…' : targetUrl ? `Send to ${targetUrl}` : 'Send'}
        </button>
        <SignedCurlButton draft={draft} options={() => sendOptions(customSecret.current)} />
        <button
          type="button"
          className="btn btn-small btn-ghost"
          onClick={() => diffRef.current?.scrollIntoView({ block: 'nearest' })}
          data-testid="show-pending-diff"
        >
          {pendingDiff.length === 0 ? 'Nothing edited' : `${pendingDiff.length} change${pendingDiff.length === 1 ? '' : 's'}`} ↓
        </button>
      </div>
      {confirm !== null && (
        <ProductionConfirm
          title="Send to a production operator?"
          verb="Send to"
          targetUrl={targetUrl}
          message={confirm}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            setConfirm(null);
            void doSend(true);
          }}
        >
          <p className="muted small">
            {draft.method} {draft.path}, signature mode “{mode}”.
          </p>
        </ProductionConfirm>
      )}
    </div>
  );
}
