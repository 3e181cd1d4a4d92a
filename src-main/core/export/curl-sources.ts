// cURL commands for the two things staff copy: a recorded exchange, and a composer draft signed the
// way a send of it would be (the command carries the signature, never the secret).
import type { Draft, SendOptions } from '../../shared/model';
import type { StoreAndSecrets } from '../secrets';
import type { ExchangeReader } from '../store/contract/exchange-log';
import { checkDraft } from '../outbound/dispatch';
import { signDraft } from '../outbound/signature-mode';
import { joinUrl, resolveTarget } from '../outbound/target';
import { DeskFailure } from '../result';
import { curlCommand } from './curl';
import { isRedacted, redactHeaders, redactUrlPart, storedSecrets } from '../redact';
import { exchangeUrl } from './request-url';

export async function curlForExchange(ctx: StoreAndSecrets & { log: ExchangeReader }, id: number): Promise<string> {
  const detail = Number.isInteger(id) ? await ctx.log.get(id) : null;
  if (!detail) throw new DeskFailure('not-found', `No exchange with id ${id}.`);
  const raw = { method: detail.method, body: Buffer.from(detail.request.bodyBase64, 'base64') };
  const secrets = storedSecrets(ctx);
  const headers = redactHeaders(detail.request.headers, secrets);
  const notes: string[] = [];
  if (detail.request.truncated) {
    notes.push(`The desk kept ${raw.body.length} of the ${detail.request.size} bytes of this body (size limit): this command sends the kept part only.`);
  }
  if (headers.some(([, v]) => isRedacted(v))) {
    notes.push('A secret in the headers is shown as [redacted sha256:...]: put the real value in before running.');
  }
  // Rows written before paths and queries were redacted may still hold a secret there.
  return curlCommand({ method: raw.method, url: redactUrlPart(exchangeUrl(detail), secrets), headers, body: raw.body, notes });
}

/** The draft as a send would go out: to options.to or the profile's operator URL, signed per options.signature (default resign). */
export function curlForDraft(ctx: StoreAndSecrets, draft: Draft, options: SendOptions = {}): string {
  checkDraft(draft);
  // Copying sends nothing, so a production profile needs no confirmation here; running the command is the user's act.
  const { profile, base } = resolveTarget(ctx, { ...options, confirmedProduction: true });
  const { body, headers: signed } = signDraft(draft, options, profile);
  const secrets = storedSecrets(ctx);
  return curlCommand({
    method: draft.method.toUpperCase(),
    url: redactUrlPart(joinUrl(base, draft.path), secrets),
    headers: redactHeaders(signed, secrets),
    body,
  });
}
