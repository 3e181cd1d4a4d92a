import type { ExchangeDetail } from '../../../src-main/shared/model';
import { Section } from '../../components/Section';
import { VerdictBadge } from '../../components/VerdictBadge';
import { useDesk } from '../../store';
import { useActiveProfile } from '../profiles/use-active-profile';
import { verdictExplanation } from './verdict-text';
import { counted, diagnosisSummaryShown, signatureNotesShown } from '../../../src-main/shared/verdict-words';
import { Badge } from '../../components/Badge';
import { ReverifiedNote, VerifyAgainButton } from './VerifyAgain';

/** The verdict, what it means, and on a mismatch what the sender most likely signed instead. */
export function SignatureSection(props: { detail: ExchangeDetail }) {
  const { signature, kind } = props.detail;
  const { diagnosis } = signature;
  const { loaded } = useActiveProfile();
  // The exchange was judged with its own profile's secret (the active profile's when it has none).
  const own = props.detail.profile;
  const ownProfile = useDesk((s) => s.profiles.find((p) => (own === null ? p.active : p.name === own)));
  const setView = useDesk((s) => s.setView);
  const hasSecret = loaded ? ownProfile?.secret.set === true : null;
  const notes = signatureNotesShown(signature.notes, signature.verdict, diagnosis, hasSecret);
  const summary = diagnosisSummaryShown(signature.verdict, diagnosis);
  return (
    <Section
      title="Signature"
      aside={
        <span className="badge-group">
          <VerdictBadge verdict={signature.verdict} diagnosis={diagnosis} testId="detail-verdict" />
          {signature.secret === 'previous' && (
            <Badge
              tone="amber"
              title="Valid with the profile's previous signing secret: the sender has not switched to the current one"
              testId="previous-secret-marker"
            >
              previous secret
            </Badge>
          )}
        </span>
      }
      testId="signature-section"
    >
      <p data-testid="verdict-explanation">{verdictExplanation(signature.verdict, kind, hasSecret, diagnosis, own)}</p>
      {props.detail.reverified && <ReverifiedNote reverified={props.detail.reverified} />}
      {signature.verdict !== null && !props.detail.truncated && hasSecret !== false && <VerifyAgainButton id={props.detail.id} />}
      {signature.verdict === 'no-secret' && hasSecret === false && (
        <p>
          <button type="button" className="btn btn-small" onClick={() => setView('profiles')} data-testid="go-profiles">
            Open Profiles
          </button>
        </p>
      )}
      {notes.length > 0 && (
        <ul className="notes" data-testid="signature-notes">
          {notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
      {diagnosis && summary !== null && (
        <div className={diagnosis.match ? 'diagnosis diagnosis-found' : 'diagnosis'} data-testid="diagnosis">
          <div className="diagnosis-title">{diagnosis.match ? 'Diagnosis: found what was signed' : 'Diagnosis'}</div>
          <p data-testid="diagnosis-summary">{summary}</p>
          {diagnosis.match && (
            <p className="small">
              Reproduced with: <strong data-testid="diagnosis-match">{diagnosis.match.label}</strong>
              {diagnosis.match.profile && <> (profile “{diagnosis.match.profile}”)</>}
            </p>
          )}
          {diagnosis.tried.length > 0 && (
            <details className="small">
              <summary>{counted(diagnosis.tried.length, 'variant')} tried</summary>
              <ul>
                {diagnosis.tried.map((t, i) => (
                  <li key={i}>{t}</li>
                ))}
              </ul>
            </details>
          )}
        </div>
      )}
    </Section>
  );
}
