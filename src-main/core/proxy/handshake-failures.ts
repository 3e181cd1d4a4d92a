// TLS handshakes that fail (plain HTTP sent to the TLS port, a client that does not trust the
// certificate, a handshake that stalls past its timeout) never become requests, but something reached
// the proxy: each gets a small row (kind other, no body) naming what happened and who it came from.
// Anyone can cause them at line rate, so their rows are rate-limited: a flood cannot fill the disk,
// and the first row after a gap says how many failures were not recorded.

/** Handshake failures recorded per window, at most. */
export const HANDSHAKE_ROWS_PER_WINDOW = 60;
export const HANDSHAKE_WINDOW_MS = 60_000;

export class HandshakeFailureBudget {
  private windowStart = 0;
  private used = 0;
  private skipped = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Whether this failure gets a row; when it does, how many were skipped since the last one. */
  take(): { record: boolean; skipped: number } {
    const t = this.now();
    if (t - this.windowStart >= HANDSHAKE_WINDOW_MS) {
      this.windowStart = t;
      this.used = 0;
    }
    if (this.used >= HANDSHAKE_ROWS_PER_WINDOW) {
      this.skipped++;
      return { record: false, skipped: 0 };
    }
    this.used++;
    const skipped = this.skipped;
    this.skipped = 0;
    return { record: true, skipped };
  }
}

/** The row's error text for a failed handshake. */
export function handshakeError(err: NodeJS.ErrnoException, skipped: number): string {
  const what =
    err.code === 'ERR_TLS_HANDSHAKE_TIMEOUT'
      ? 'the TLS handshake did not complete within the handshake timeout'
      : /http request/i.test(err.message)
        ? 'plain HTTP was sent to the TLS port'
        : 'the TLS handshake failed';
  const more =
    skipped > 0 ? ` (${skipped} more handshake failure(s) before this one were not recorded: at most ${HANDSHAKE_ROWS_PER_WINDOW} a minute get a row)` : '';
  return `${what} (${err.code ?? 'tls error'}: ${err.message}); no request was received${more}`;
}
