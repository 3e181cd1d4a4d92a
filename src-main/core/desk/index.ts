import type { DeskApi, DeskEventListener, DeskEventName, DeskEvents } from '../../shared/desk-api';
import type { ExchangeSummary } from '../../shared/model';
import { openStore } from '../store';
import { composePart } from './compose-part';
import { createContext, type DeskContext, type DeskOptions } from './context';
import { ecosystemPart } from './ecosystem-part';
import { exchangesPart } from './exchanges-part';
import { profilesPart } from './profiles-part';
import { proxyPart } from './proxy-part';
import { tokenPart } from './token-part';

export type { DeskContext, DeskOptions } from './context';

/** The application object: DeskApi for the shells, plus event subscription and shutdown. */
export interface Desk extends DeskApi {
  readonly ctx: DeskContext;
  /** Subscribes to every event; returns the unsubscribe function. */
  on(listener: DeskEventListener): () => void;
  close(): Promise<void>;
}

const MiB = 1024 * 1024;

/** Opens the data directory and assembles the desk from its parts. */
export function createDesk(options: DeskOptions): Desk {
  const listeners = new Set<DeskEventListener>();
  const emit: DeskEventListener = <K extends DeskEventName>(name: K, payload: DeskEvents[K]) => {
    for (const l of listeners) {
      try {
        l(name, payload);
      } catch {
        // A broken subscriber (a closed event stream, say) must not break the capture that emitted.
      }
    }
  };
  // Rows written inside a transaction (the proxy's group commit) are announced once it has ended:
  // listeners then never hold the write lock, and never see a row before it is durable. Once anything is
  // pending, later rows queue behind it so that events keep their order.
  const pending: ExchangeSummary[] = [];
  const flush = (): void => {
    const counts = store.exchanges.counts();
    for (const exchange of pending.splice(0)) emit('exchange', { exchange, counts });
  };
  const store = openStore(options.home, {
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    onExchange: (summary) => {
      if (pending.length === 0 && !store.db.inTransaction) return emit('exchange', { exchange: summary, counts: store.exchanges.counts() });
      if (pending.push(summary) === 1) queueMicrotask(flush);
    },
  });
  const ctx = createContext(
    store,
    {
      home: options.home,
      maxBodyBytes: options.maxBodyBytes ?? MiB,
      upstreamTimeoutMs: options.upstreamTimeoutMs ?? 30_000,
      outboundTimeoutMs: options.outboundTimeoutMs ?? 30_000,
      proxyGuardRails: options.proxyGuardRails ?? {},
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
    },
    emit,
  );
  let closed = false;
  return {
    ctx,
    ...exchangesPart(ctx),
    ...profilesPart(ctx),
    ...proxyPart(ctx),
    ...composePart(ctx),
    ...tokenPart(ctx),
    ...ecosystemPart(ctx),
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await ctx.runClosers();
      store.close();
    },
  };
}
