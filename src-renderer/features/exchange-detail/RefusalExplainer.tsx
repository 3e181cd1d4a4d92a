import { useState } from 'react';
import type { DeskError, ExchangeDetail, RefusalExplanation } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { Section } from '../../components/Section';

/** A callback the operator refused (4XX) although its signature is valid: what the explainer is for. */
export function refusedWithValidSignature(detail: ExchangeDetail): boolean {
  const status = detail.response?.status ?? null;
  return (detail.kind === 'pay' || detail.kind === 'results') && detail.signature.verdict === 'valid' && status !== null && status >= 400 && status < 500;
}

/**
 * "Why was it refused?": sends the message to the operator again, re-serialized the common ways, each
 * signed over its bytes, and shows which one it accepted. It sends traffic (an accepted pay is a
 * payment), so it runs only on a click, and a production profile asks first.
 */
export function RefusalExplainer(props: { detail: ExchangeDetail }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<DeskError | null>(null);
  const [explained, setExplained] = useState<RefusalExplanation | null>(null);
  const run = async (confirmedProduction: boolean): Promise<void> => {
    setBusy(true);
    setError(null);
    const r = await desk.explainRefusal(props.detail.id, confirmedProduction ? { confirmedProduction } : {});
    setBusy(false);
    if (r.ok) setExplained(r.value);
    else setError(r.error);
  };
  return (
    <Section title="Refused with a valid signature" testId="refusal-section">
      <p className="small">
        The operator answered {props.detail.response?.status} although the signature is valid. The desk can send this message again re-serialized the ways
        operators commonly re-serialize (compact JSON, Python’s json.dumps, PHP’s json_encode, sorted keys, trimmed), each signed over what it sends, and name
        the one the operator accepts. This sends real requests: an accepted pay is a payment.
      </p>
      <p>
        <button type="button" className="btn btn-small" disabled={busy} onClick={() => void run(false)} data-testid="explain-refusal">
          {busy ? 'Probing the operator…' : 'Why was it refused?'}
        </button>
      </p>
      {error?.code === 'needs-confirmation' && (
        <p className="small text-error" data-testid="explain-refusal-confirm">
          {error.message}{' '}
          <button type="button" className="btn btn-small" disabled={busy} onClick={() => void run(true)}>
            Send anyway
          </button>
        </p>
      )}
      {error && error.code !== 'needs-confirmation' && (
        <p className="small text-error" data-testid="explain-refusal-error">
          {error.message}
        </p>
      )}
      {explained && (
        <div data-testid="refusal-explanation" data-finding={explained.finding}>
          <p>
            <strong>{explained.explanation}</strong>
          </p>
          <ul className="small">
            {explained.probes.map((p) => (
              <li key={p.exchangeId} data-testid="refusal-probe" data-variant={p.variant} data-accepted={String(p.accepted)}>
                #{p.exchangeId} · {p.accepted ? 'accepted' : 'refused'} · {p.status ?? `no answer (${p.error ?? 'unknown'})`} · {p.label}
              </li>
            ))}
          </ul>
        </div>
      )}
    </Section>
  );
}
