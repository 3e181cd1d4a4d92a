// The signature verdict in plain words for support staff: what it means and what to do about it.
import type { Diagnosis, Verdict } from '../../../src-main/shared/model';

/**
 * `profileHasSecret`: whether the exchange's profile has a signing secret now (null: not known yet);
 * `profile`: the exchange's own profile, whose secret judged it (null: an unassigned exchange, judged
 * with the active profile's).
 */
export function verdictExplanation(
  verdict: Verdict | null,
  kind: string,
  profileHasSecret: boolean | null = null,
  diagnosis: Pick<Diagnosis, 'match'> | null = null,
  profile: string | null = null,
): string {
  const secret = profile === null ? "the active profile's secret" : `the secret of profile “${profile}”`;
  const found = verdict === 'mismatch' ? diagnosis?.match?.variant : undefined;
  if (found === 'uppercase-hex')
    return `The header is the right HMAC-SHA256 of these bytes with ${secret}, written in uppercase hex. Receivers that compare hex strings (as the interface's own example does) reject it: the sender must write lowercase hex.`;
  if (found === 'recorder-kept-no-body' || found === 'recorder-changed-body')
    return 'The file this exchange was imported from does not hold the bytes that were sent, so the signature cannot be checked here. Capture the request with the proxy to judge it.';
  switch (verdict) {
    case 'valid':
      return `The x-server-authorization header is the HMAC-SHA256 of the exact body bytes with ${secret}. An operator holding the same secret accepts it.`;
    case 'mismatch':
      return `The header is a well-formed signature, but not the HMAC-SHA256 of these body bytes with ${secret}. An operator must reject this request.`;
    case 'missing':
      return 'The request has no x-server-authorization header. An operator must reject an unsigned callback.';
    case 'malformed':
      return 'The x-server-authorization header is not a 64-character hexadecimal HMAC-SHA256 digest.';
    case 'no-secret':
      return profileHasSecret
        ? `This exchange was recorded before ${profile === null ? 'the active profile' : `profile “${profile}”`} had a signing secret, so it was not checked. The profile has one now: Verify again checks this capture with it.`
        : 'The desk has no signing secret to check with. Set one on the active profile in the Profiles screen; captures from then on are verified.';
    case null:
      return kind === 'token' ? 'Token requests are authenticated with x-operator-id and x-api-key, not signed.' : 'No signature applies to this exchange.';
  }
}
