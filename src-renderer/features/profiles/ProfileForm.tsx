import { useRef, useState, type FormEvent } from 'react';
import type { AmountsMode, ProfileInput, ProfileView, ProxyStatus } from '../../../src-main/shared/model';
import { currencyExponent, DEFAULT_CURRENCY, formatMoney, isCurrencyCode } from '../../../src-main/shared/money';
import { SelectField, TextField } from '../../components/FormFields';
import { FormRow } from '../../components/FormRow';
import type { SelectOption } from '../../components/field-props';
import { useDesk } from '../../store';
import { BalanceProbeFields, probeDraftOf, probeInput } from './BalanceProbeFields';
import { SecretField } from './SecretField';

interface Props {
  /** null: a new profile. */
  profile: ProfileView | null;
  onSaved(name: string): void;
  /** "Saved “acme” at 10:42:07.": the form is made anew after a save, so the note is kept by its screen. */
  savedNote?: string | null;
}

const orNull = (v: string): string | null => (v.trim() === '' ? null : v.trim());

/**
 * What the upstream field means beside what the running proxy does: the proxy keeps the upstream it was
 * started with, so an empty field must not claim "the sandbox answers" while the status bar says forward.
 */
function upstreamHint(typed: string, proxy: ProxyStatus | null, active: boolean): string {
  const own =
    typed.trim() === ''
      ? 'empty: the sandbox operator answers when the proxy starts with this profile'
      : 'the proxy forwards there when it starts with this profile';
  const running = proxy?.running
    ? proxy.mode === 'forward'
      ? ` The running proxy forwards to ${proxy.upstream ?? 'its upstream'}${active ? ' (the upstream it was started with)' : ''}.`
      : ' The running proxy answers with the sandbox operator.'
    : '';
  return `Where the capture proxy forwards callbacks (${own}).${running}`;
}

const AMOUNTS: ReadonlyArray<SelectOption<AmountsMode>> = [
  { value: 'integer', label: 'Integers in minor units (100 for 1.00)' },
  { value: 'decimal', label: 'Decimals (1.50)' },
];

/**
 * One profile's settings. The two secrets are write-only: typed values are sent once, on save, and
 * only when something was typed (an empty field keeps the stored value); "Clear" removes one.
 */
export function ProfileForm(props: Props) {
  const { profile, onSaved } = props;
  const save = useDesk((s) => s.saveProfile);
  const [name, setName] = useState(profile?.name ?? '');
  const [operatorUrl, setOperatorUrl] = useState(profile?.operatorUrl ?? '');
  const [upstream, setUpstream] = useState(profile?.upstream ?? '');
  const [baseUrl, setBaseUrl] = useState(profile?.baseUrl ?? '');
  const [operatorId, setOperatorId] = useState(profile?.operatorId ?? '');
  const [production, setProduction] = useState(profile?.production ?? false);
  const [allowSelfSigned, setAllowSelfSigned] = useState(profile?.allowSelfSigned ?? false);
  const [callbackPrefix, setCallbackPrefix] = useState(profile?.callbackPrefix ?? '/platform');
  const [amounts, setAmounts] = useState<AmountsMode>(profile?.amounts ?? 'integer');
  const [publicUrl, setPublicUrl] = useState(profile?.publicUrl ?? '');
  const [currency, setCurrency] = useState(profile?.currency ?? DEFAULT_CURRENCY);
  const proxy = useDesk((s) => s.status?.proxy ?? null);
  const activeName = useDesk((s) => s.status?.activeProfile ?? null);
  const [clearSecret, setClearSecret] = useState(false);
  const [clearApiKey, setClearApiKey] = useState(false);
  const [clearPrevious, setClearPrevious] = useState(false);
  const previousRef = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const secretRef = useRef<HTMLInputElement>(null);
  const apiKeyRef = useRef<HTMLInputElement>(null);
  const [probe, setProbe] = useState(() => probeDraftOf(profile?.balance));
  const probeHeadersRef = useRef<HTMLTextAreaElement>(null);
  const probeKeyRef = useRef<HTMLInputElement>(null);
  const [clearProbeKey, setClearProbeKey] = useState(false);
  const [probeProblem, setProbeProblem] = useState<string | null>(null);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const input: ProfileInput = {
      name: name.trim(),
      operatorUrl: orNull(operatorUrl),
      upstream: orNull(upstream),
      baseUrl: orNull(baseUrl),
      operatorId: orNull(operatorId),
      production,
      allowSelfSigned,
      // Empty goes back to the spec's /platform; the desk refuses a malformed prefix with a reason.
      callbackPrefix: orNull(callbackPrefix),
      amounts,
      currency: orNull(currency),
      publicUrl: orNull(publicUrl),
    };
    const probeFields = probeInput(probe, probeHeadersRef.current?.value ?? '');
    setProbeProblem(typeof probeFields === 'string' ? probeFields : null);
    if (typeof probeFields === 'string') return;
    Object.assign(input, probeFields);
    const secret = secretRef.current?.value ?? '';
    const apiKey = apiKeyRef.current?.value ?? '';
    if (clearSecret) input.secret = null;
    else if (secret !== '') input.secret = secret;
    const previous = previousRef.current?.value ?? '';
    if (clearPrevious) input.previousSecret = null;
    else if (previous !== '') input.previousSecret = previous;
    if (clearApiKey) input.apiKey = null;
    else if (apiKey !== '') input.apiKey = apiKey;
    const probeKey = probeKeyRef.current?.value ?? '';
    if (clearProbeKey) input.balanceHmacKey = null;
    else if (probeKey !== '') input.balanceHmacKey = probeKey;
    setBusy(true);
    const saved = await save(input);
    setBusy(false);
    if (!saved) return;
    // The typed values have done their job: out of the inputs at once.
    if (secretRef.current) secretRef.current.value = '';
    if (apiKeyRef.current) apiKeyRef.current.value = '';
    if (previousRef.current) previousRef.current.value = '';
    if (probeHeadersRef.current) probeHeadersRef.current.value = '';
    if (probeKeyRef.current) probeKeyRef.current.value = '';
    setClearProbeKey(false);
    // The URL as stored shows its query values masked: a typed credential leaves the page with the save.
    setProbe((p) => ({ ...p, url: saved.balance.url ?? '', clearHeaders: false }));
    setClearPrevious(false);
    onSaved(saved.name);
  };

  return (
    <form className="profile-form" onSubmit={(e) => void submit(e)} autoComplete="off" data-testid="profile-form">
      {profile === null && (
        <TextField
          label="Name"
          hint="Letters, digits, spaces, dots, dashes; for example “acme-staging”."
          value={name}
          onChange={setName}
          testId="profile-name"
        />
      )}
      <fieldset className="form-group">
        <legend>Operator</legend>
        <TextField
          label="Operator URL"
          hint={`Where replays, hand-crafted callbacks, edge cases and the conformance check are sent (base URL; ${callbackPrefix.trim() || '/platform'}/pay is appended).`}
          value={operatorUrl}
          onChange={setOperatorUrl}
          placeholder="https://operator.example.com"
          testId="profile-operator-url"
        />
        <TextField
          label="Callback prefix"
          hint="Where the operator mounts its callbacks: <prefix>/pay and <prefix>/results. The spec writes /platform as a stand-in; real operators use their own (/acme, /api/v2/acme)."
          value={callbackPrefix}
          onChange={setCallbackPrefix}
          placeholder="/platform"
          testId="profile-callback-prefix"
        />
        <SelectField
          label="Amounts"
          hint="How the operator writes amounts: the stakes, edge cases and templates follow it, and a fraction on an integer profile is an error finding."
          value={amounts}
          onChange={setAmounts}
          options={AMOUNTS}
          testId="profile-amounts"
        />
        <FormRow
          label="Currency"
          controlId="profile-currency"
          hint={
            <>
              The ISO 4217 code templates, checks and edge cases send.{' '}
              {isCurrencyCode(currency) && amounts === 'integer'
                ? `An amount of 100 minor units shows as ${formatMoney(100, currency, true)} (${currencyExponent(currency)} decimal${currencyExponent(currency) === 1 ? '' : 's'} for ${currency}).`
                : ''}
            </>
          }
          hintTestId="profile-currency-hint"
        >
          <input
            id="profile-currency"
            className="input input-short"
            value={currency}
            maxLength={3}
            spellCheck={false}
            onChange={(e) => setCurrency(e.target.value.toUpperCase())}
            data-testid="profile-currency"
          />
        </FormRow>
        <TextField
          label="Proxy upstream"
          hint={upstreamHint(upstream, proxy, profile !== null && profile.name === activeName)}
          value={upstream}
          onChange={setUpstream}
          placeholder="https://operator.example.com (empty: sandbox)"
          testId="profile-upstream"
        />
        <TextField
          label="Public URL"
          hint="The address the platform calls this desk at (a tunnel's, or the staging host's): the status bar shows it with the callback prefix as the URLs to configure in the platform."
          value={publicUrl}
          onChange={setPublicUrl}
          placeholder="https://desk.example.net"
          testId="profile-public-url"
        />
        <SecretField
          ref={secretRef}
          label="Signing secret"
          hint="The HMAC-SHA256 secret shared with the platform: verifies captures and signs what the desk sends."
          state={profile?.secret ?? null}
          clearing={clearSecret}
          onClearingChange={setClearSecret}
          testId="profile-secret"
        />
        <SecretField
          ref={previousRef}
          label="Previous signing secret"
          hint="During a rotation: the secret being replaced. Captures signed with it still verify (marked as such); nothing is signed with it. Clear it when the rotation is over."
          state={profile?.previousSecret ?? null}
          clearing={clearPrevious}
          onClearingChange={setClearPrevious}
          testId="profile-previous-secret"
        />
      </fieldset>
      <fieldset className="form-group">
        <legend>Token service</legend>
        <TextField
          label="Service base URL"
          hint="The platform's API, for test tokens (POST /v0/wager/operator/create-token)."
          value={baseUrl}
          onChange={setBaseUrl}
          placeholder="https://api.example.com"
          testId="profile-base-url"
        />
        <TextField label="Operator id" hint="Sent as x-operator-id." value={operatorId} onChange={setOperatorId} testId="profile-operator-id" />
        <SecretField
          ref={apiKeyRef}
          label="API key"
          hint="Sent as x-api-key with token requests only; stored encrypted, never shown again."
          state={profile?.apiKey ?? null}
          clearing={clearApiKey}
          onClearingChange={setClearApiKey}
          testId="profile-api-key"
        />
      </fieldset>
      <BalanceProbeFields ref={probeHeadersRef} stored={profile?.balance} draft={probe} onChange={setProbe} />
      <fieldset className="form-group">
        <legend>Balance probe signing key</legend>
        <SecretField
          ref={probeKeyRef}
          label="Signing key"
          hint="For balance endpoints that sign their reads: a probe header value such as {hmac-sha256-hex:{userId}} is the HMAC-SHA256 of its template under this key. Stored encrypted, never shown again, never sent."
          state={profile?.balance.hmacKey ?? null}
          clearing={clearProbeKey}
          onClearingChange={setClearProbeKey}
          testId="profile-balance-hmac-key"
        />
      </fieldset>
      <fieldset className="form-group">
        <legend>Safety</legend>
        <label className="checkbox-row">
          <input type="checkbox" checked={production} onChange={(e) => setProduction(e.target.checked)} data-testid="profile-production" />
          <span>
            <strong>Production</strong>: a real operator with real balances. The desk asks for confirmation, naming the target, before it sends anything.
          </span>
        </label>
        <label className="checkbox-row">
          <input type="checkbox" checked={allowSelfSigned} onChange={(e) => setAllowSelfSigned(e.target.checked)} data-testid="profile-self-signed" />
          <span>Accept a self-signed TLS certificate from this operator (test servers only).</span>
        </label>
      </fieldset>
      {probeProblem !== null && (
        <div className="small text-error" data-testid="profile-balance-problem">
          {probeProblem}
        </div>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary" disabled={busy || name.trim() === ''} data-testid="profile-save">
          {profile === null ? 'Create profile' : 'Save changes'}
        </button>
        {props.savedNote && (
          <span className="saved-note" role="status" data-testid="profile-saved">
            ✓ {props.savedNote}
          </span>
        )}
      </div>
    </form>
  );
}
