import type { DeskApi } from '../../shared/desk-api';
import { explainRefusedExchange } from '../outbound/explain-exchange';
import { attempt } from './attempt';
import type { DeskContext } from './context';

export function refusalPart(ctx: DeskContext): Pick<DeskApi, 'explainRefusal'> {
  return {
    explainRefusal: (id, options) =>
      attempt(() =>
        explainRefusedExchange(ctx, Number(id), {
          confirmedProduction: options?.confirmedProduction === true,
          ...(typeof options?.profile === 'string' ? { profile: options.profile } : {}),
        }),
      ),
  };
}
