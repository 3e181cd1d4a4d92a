import { InvalidArgumentError } from 'commander';
import type { ExchangeKind } from '../../shared/model';
import { resultValue } from '../parse';

const KINDS: readonly ExchangeKind[] = ['pay', 'results', 'token', 'other'];

export function kindOption(value: string): ExchangeKind {
  if (!(KINDS as readonly string[]).includes(value)) throw new InvalidArgumentError(`expected one of ${KINDS.join(', ')}`);
  return value as ExchangeKind;
}

export const resultOption = resultValue;
