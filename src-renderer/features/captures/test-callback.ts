// The first thing a newcomer runs: a shell command that sends a signed pay callback to the proxy.
// The desk never reveals a stored secret, so the command signs with openssl from $WD_SECRET (the
// variable the README's first session uses), exactly as the platform would: HMAC-SHA256 over the exact
// body bytes, lowercase hex. It posts under the active profile's callback prefix, in its currency, so
// the desk does not flag its own suggestion.
import { DEFAULT_CURRENCY } from '../../../src-main/shared/money';

export const TEST_SECRET_VARIABLE = 'WD_SECRET';

export function testPayBody(depositId: string, currency: string = DEFAULT_CURRENCY): string {
  return JSON.stringify({ userId: 'user-1', depositId, currency, amount: 5 });
}

export function signedCurlCommand(proxyUrl: string, depositId: string, callbackPrefix = '/platform', currency: string = DEFAULT_CURRENCY): string {
  const base = proxyUrl.replace(/\/+$/, '');
  return [
    `BODY='${testPayBody(depositId, currency)}'`,
    `SIG=$(printf %s "$BODY" | openssl dgst -sha256 -hmac "$${TEST_SECRET_VARIABLE}" -hex | sed 's/^.* //')`,
    `curl -X POST ${base}${callbackPrefix}/pay -H 'content-type: application/json' -H "x-server-authorization: $SIG" --data-binary "$BODY"`,
  ].join('\n');
}

/** A deposit id that is new each time the page is opened, so repeated tries are not duplicates. */
export function freshTestDepositId(now: Date = new Date()): string {
  return `dep-test-${now.getTime().toString(36)}`;
}
