// The balance observer of a profile: a GET to the operator's balance endpoint for test users (the
// probe), and the balance an operator's answer carries (the answer path). Each reading is exact in the
// profile's amounts or 'unavailable' with the reason; nothing here guesses a balance. The probe goes
// through the desk's one HTTP client (no redirect followed, so its credentials reach no second
// server; a timeout), and is not recorded as an exchange: it is evidence of a step, not a callback.
import type { AmountsMode, BalanceUnits, HeaderList } from '../../shared/model';
import { httpSend, type OutboundOutcome, type OutboundRequest } from '../outbound/http-send';
import { sameOrigin } from '../outbound/target';
import { redactText, secretsToRedact } from '../redact';
import type { ProfileSecrets } from '../store/contract/profiles';
import { DEFAULT_CURRENCY_EXPONENT, readBalance } from './money';
import { NO_BALANCE_EVIDENCE, type BalanceEvidence, type BalanceObserver } from './observer';
import { probeUrlFor } from '../balance-probe/probe-config';
import { renderProbeHeaders } from '../balance-probe/probe-headers';
import { readProbePath } from '../balance-probe/probe-path';
import { maskedBalanceUrl, probeSecrets } from '../balance-probe/probe-secrets';

export interface BalanceObserverDeps {
  /** How long the probe may take to answer. */
  timeoutMs: number;
  /** Digits of the currency's major unit (2 for cents): how major units become minor ones. */
  exponent?: number;
  /** The HTTP client; default: the desk's (tests of the other party's behaviour pass the same). */
  send?: (request: OutboundRequest) => Promise<OutboundOutcome>;
}

const decoder = new TextDecoder('utf-8', { fatal: false });

function parseJson(body: Uint8Array): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(decoder.decode(body)) };
  } catch {
    return { ok: false };
  }
}

function howToObserve(name: string | null, url: string | null, path: string | null): string {
  const profile = name ?? 'NAME';
  if (url !== null && path === null) return `give the balance probe a path into its answer: profile set ${profile} --balance-path '$.balance'`;
  if (url === null && path !== null) return `give the balance probe a URL: profile set ${profile} --balance-url URL`;
  return `set a balance probe (profile set ${profile} --balance-url URL --balance-path PATH) or read the balance in the answers (profile set ${profile} --answer-balance-path PATH)`;
}

/** The observer of a profile's balance probe and answer path; NO_BALANCE_EVIDENCE's behaviour when it names neither. */
export function buildBalanceObserver(profile: ProfileSecrets | null, deps: BalanceObserverDeps): BalanceObserver {
  const probe = profile?.balance;
  const url = probe?.url ?? null;
  const path = probe?.path ?? null;
  const answerPath = probe?.answerPath ?? null;
  const mode: AmountsMode = profile?.amounts ?? 'integer';
  const units: BalanceUnits = probe?.units ?? (mode === 'integer' ? 'minor' : 'major');
  const exponent = deps.exponent ?? DEFAULT_CURRENCY_EXPONENT;
  const headers: HeaderList = probe?.headers ?? [];
  // Every form of the probe's credentials: an answer or an error may echo any of them, and a reason
  // quotes what it read (the check's report keeps it).
  const credentials = secretsToRedact(probeSecrets(headers, url));
  const send = deps.send ?? httpSend;
  const probing = url !== null && path !== null;
  if (!probing && answerPath === null) return { ...NO_BALANCE_EVIDENCE, howToObserve: howToObserve(profile?.name ?? null, url, path) };

  const valueAt = (value: unknown, at: string, userId: string | null, source: 'probe' | 'answer'): BalanceEvidence => {
    const found = readProbePath(value, at, userId);
    if (!found.found) return { kind: 'unavailable', reason: `the ${source === 'probe' ? "probe's answer" : 'answer'} has no balance at ${at}: ${found.why}` };
    // A text is quoted in the reason when it is not a number: redacted before it is cut to length.
    const raw = typeof found.value === 'string' ? redactText(found.value, credentials) : found.value;
    const money = readBalance(raw, units, mode, exponent);
    return money.ok ? { kind: 'reading', value: money.value, source } : { kind: 'unavailable', reason: `the balance at ${at} is unreadable: ${money.reason}` };
  };

  return {
    available: true,
    howToObserve: probing ? `balance probe ${maskedBalanceUrl(url)}` : `the balance in answers at ${answerPath}`,
    async read(userId: string): Promise<BalanceEvidence> {
      if (!probing)
        return {
          kind: 'unavailable',
          reason: `the balance is read from the answers at ${answerPath ?? '?'}, and no answer for this user has carried it since the last change`,
        };
      const target = probeUrlFor(url, userId);
      const rendered = renderProbeHeaders(headers, userId, profile?.name ?? null);
      if (!rendered.ok) return { kind: 'unavailable', reason: rendered.reason };
      const outcome = await send({
        url: target,
        method: 'GET',
        headers: [['Accept', 'application/json'], ...rendered.headers],
        body: new Uint8Array(0),
        timeoutMs: deps.timeoutMs,
        allowSelfSigned: profile?.allowSelfSigned === true && sameOrigin(target, profile.operatorUrl),
      });
      // An error text names the URL, never a header; redacted all the same, should a server echo one.
      if (!outcome.ok) return { kind: 'unavailable', reason: redactText(`the balance probe failed: ${outcome.error}`, credentials) };
      const { status, body } = outcome.response;
      if (status < 200 || status > 299) {
        return { kind: 'unavailable', reason: `the balance probe answered ${status} for user ${JSON.stringify(userId)}` };
      }
      const parsed = parseJson(body);
      if (!parsed.ok) return { kind: 'unavailable', reason: `the balance probe answered ${status} with a body that is not JSON` };
      return valueAt(parsed.value, path, userId, 'probe');
    },
    fromAnswer(body: Uint8Array): BalanceEvidence | null {
      if (answerPath === null) return null;
      const parsed = parseJson(body);
      if (!parsed.ok) return null;
      const found = readProbePath(parsed.value, answerPath, null);
      if (!found.found) return null;
      return valueAt(parsed.value, answerPath, null, 'answer');
    },
  };
}
