// The first thing a newcomer runs: a shell command that sends a signed pay callback to the proxy.
// The desk never reveals a stored secret, so the command signs with openssl from $WAGER_SECRET,
// exactly as the platform would: HMAC-SHA256 over the exact body bytes, lowercase hex.

export function testPayBody(depositId: string): string {
  return JSON.stringify({ userId: 'user-1', depositId, currency: 'EUR', amount: 5 });
}

export function signedCurlCommand(proxyUrl: string, depositId: string): string {
  const base = proxyUrl.replace(/\/+$/, '');
  return [
    `BODY='${testPayBody(depositId)}'`,
    `SIG=$(printf %s "$BODY" | openssl dgst -sha256 -hmac "$WAGER_SECRET" -hex | sed 's/^.* //')`,
    `curl -X POST ${base}/platform/pay -H 'content-type: application/json' -H "x-server-authorization: $SIG" --data-binary "$BODY"`,
  ].join('\n');
}

/** A deposit id that is new each time the page is opened, so repeated tries are not duplicates. */
export function freshTestDepositId(now: Date = new Date()): string {
  return `dep-test-${now.getTime().toString(36)}`;
}
