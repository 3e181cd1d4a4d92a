import { InvalidArgumentError } from 'commander';
import { isCurrencyCode } from '../shared/money';
import { RESULT_VALUES, VERDICTS, type ResultValue, type Verdict } from '../shared/model';
import { isResultValue } from '../core/desk/shell-kit';

/** Commander argument parsers: a bad value is a usage error (exit 2) with a reason. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a whole number of 1 or more');
  return n;
}

export function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number from 0 to 65535');
  return n;
}

export function exchangeId(value: string): number {
  return positiveInt(value);
}

/** A result in any case (refund, REFUND): WIN, DRAW, LOSE or REFUND. */
export function resultValue(value: string): ResultValue {
  const upper = value.toUpperCase();
  if (!isResultValue(upper)) throw new InvalidArgumentError(`expected one of ${RESULT_VALUES.join(', ')}`);
  return upper;
}

export function verdict(value: string): Verdict {
  if (!(VERDICTS as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${VERDICTS.join(', ')}`);
  return value as Verdict;
}

export function httpUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected an http or https URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('expected an http or https URL');
  return value;
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** An ISO 4217 code, in any case: eur is EUR. */
export function currencyCode(value: string): string {
  const code = value.trim().toUpperCase();
  if (!isCurrencyCode(code)) throw new InvalidArgumentError('expected an ISO 4217 currency code of three letters (EUR, JPY)');
  return code;
}
