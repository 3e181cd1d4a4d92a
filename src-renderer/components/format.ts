// How values read in lists and panes: local wall-clock times with milliseconds (callbacks come in
// bursts), amounts with their currency, kinds with their result.
import type { ExchangeSummary } from '../../src-main/shared/model';
import { formatMoney, type AmountStyle } from '../../src-main/shared/money';

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function formatTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`;
}

export function formatDateTime(iso: string | null): string {
  if (iso === null) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${formatTime(iso)}`;
}

/**
 * An amount with its currency. `minorUnits` (an integer profile): 100 EUR minor units read "1.00 EUR",
 * and "1.00 EUR (100 minor units)" in a detail; JPY has no minor unit, BHD three (the currency's exponent).
 */
export function formatAmount(amount: number | null, currency: string | null, minorUnits = false, style: AmountStyle = 'compact'): string {
  return formatMoney(amount, currency, minorUnits, style);
}

export function formatDuration(ms: number | null): string {
  if (ms === null) return '—';
  if (ms < 1) return '<1 ms';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}

/** "pay", "results · WIN", "token". */
export function kindLabel(x: Pick<ExchangeSummary, 'kind' | 'result'>): string {
  return x.kind === 'results' && x.result ? `results · ${x.result}` : x.kind;
}

const ORIGIN_WORDS: Record<ExchangeSummary['origin'], string> = {
  proxy: 'captured',
  replay: 'replay',
  send: 'sent',
  'edge-case': 'edge case',
  check: 'check',
  token: 'token request',
  'har-import': 'imported',
  redeliver: 'redelivered',
};

export function originLabel(origin: ExchangeSummary['origin']): string {
  return ORIGIN_WORDS[origin];
}
