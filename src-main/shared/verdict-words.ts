// A signature verdict in words that agree with what the diagnosis found: a "mismatch" that is the right
// HMAC in uppercase hex, or one judged on a body the recorder did not keep, must not be told as "the
// signature does not match the body". Shared so the detail, the CLI and the ticket bundle agree.
import type { Diagnosis, Verdict } from './model';

export const VERDICT_WORDS: Record<Verdict, string> = {
  valid: 'the signature matches the exact bytes of the body',
  mismatch: 'the signature does not match the body',
  missing: 'no x-server-authorization header was sent',
  malformed: 'the x-server-authorization header is not 64 hexadecimal characters',
  'no-secret': 'no signing secret was configured, so the signature could not be checked',
};

/** What a mismatch means when the diagnosis found that the body, not the secret, explains it. */
const MISMATCH_BECAUSE: Record<string, string> = {
  'uppercase-hex': 'the right HMAC, written in uppercase hex: receivers that compare hex strings reject it',
  'recorder-kept-no-body': 'the recorder kept no body, so the signature cannot be checked against the bytes that were sent',
  'recorder-changed-body': 'the recorder changed the body, so the signature cannot be checked against the bytes that were sent',
};

export function verdictWords(verdict: Verdict, diagnosis: Pick<Diagnosis, 'match'> | null | undefined): string {
  const variant = diagnosis?.match?.variant;
  if (verdict === 'mismatch' && variant !== undefined && MISMATCH_BECAUSE[variant]) return MISMATCH_BECAUSE[variant];
  return VERDICT_WORDS[verdict];
}

/** "1 variant", "3 variants". */
export function counted(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

const NO_SECRET_NOTE = /^No signing secret is configured/;

/** What a no-secret capture says once the profile has a secret: it was recorded before, and can be verified again. */
export const RECORDED_BEFORE_SECRET = 'Recorded before a signing secret was set, so it was not checked; Verify again checks it with the secret now.';

/**
 * The verdict's notes as they read now: a capture judged before a secret was set no longer says that
 * no secret is configured once one is.
 */
export function signatureNotesNow(notes: readonly string[], verdict: Verdict | null, hasSecretNow: boolean | null): string[] {
  if (verdict !== 'no-secret' || hasSecretNow !== true) return [...notes];
  return notes.map((n) => (NO_SECRET_NOTE.test(n) ? RECORDED_BEFORE_SECRET : n));
}

/** Whether the signature is the right HMAC in uppercase hex: the verdict's words, the note and the diagnosis would each say so. */
function uppercaseHex(verdict: Verdict | null, diagnosis: Pick<Diagnosis, 'match'> | null | undefined): boolean {
  return verdict === 'mismatch' && diagnosis?.match?.variant === 'uppercase-hex';
}

const UPPERCASE_HEX_NOTE = /uppercase hex/;

/**
 * The notes a shell prints under the verdict: as they read now (signatureNotesNow), without the note that
 * repeats the uppercase-hex sentence the verdict's words (or the diagnosis) already say.
 */
export function signatureNotesShown(
  notes: readonly string[],
  verdict: Verdict | null,
  diagnosis: Pick<Diagnosis, 'match'> | null | undefined,
  hasSecretNow: boolean | null,
): string[] {
  const now = signatureNotesNow(notes, verdict, hasSecretNow);
  return uppercaseHex(verdict, diagnosis) ? now.filter((n) => !UPPERCASE_HEX_NOTE.test(n)) : now;
}

/**
 * The diagnosis's summary where the verdict is told in words (`show`, the detail, the ticket bundle);
 * null for the uppercase hex, whose words are the verdict's: one sentence, said once.
 */
export function diagnosisSummaryShown(verdict: Verdict | null, diagnosis: Pick<Diagnosis, 'match' | 'summary'> | null | undefined): string | null {
  if (!diagnosis) return null;
  return uppercaseHex(verdict, diagnosis) ? null : diagnosis.summary;
}
