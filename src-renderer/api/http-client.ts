// DeskApi over the web mode's HTTP routes: POST /api/<method> with the arguments as a JSON array, and
// the events read from /api/events as a stream. Every call resolves to a Result, whatever happens on
// the wire, so feature code handles one kind of failure.
import { DESK_EVENTS, DESK_METHODS, type DeskApi, type DeskEventListener, type DeskEventName } from '../../src-main/shared/desk-api';
import type { DeskError, Result } from '../../src-main/shared/model';
import { createSseParser } from './sse-parser';
import { readAnswer } from './api-answer';
import type { ConnectionState, DeskClient } from './types';

// Why the desk refuses the page, in a sentence: the page that replaces the app (AccessNeeded) says
// once what to do about it.
const NO_TOKEN: DeskError = {
  code: 'forbidden',
  message: 'This page has no access token.',
};

const STALE_TOKEN: DeskError = {
  code: 'forbidden',
  message: "The desk refused this page's access token: a new one is made on every run, so an address from an earlier run no longer works.",
};

/** Longest pause between reconnection attempts of the event stream. */
const MAX_RETRY_MS = 5_000;

export function createHttpClient(token: string | null): DeskClient {
  const authorization = token ? `Bearer ${token}` : '';

  async function call(method: string, args: unknown[]): Promise<Result<unknown>> {
    if (!token) return { ok: false, error: NO_TOKEN };
    let response: Response;
    try {
      response = await fetch(`/api/${method}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify(args),
      });
    } catch (err) {
      return { ok: false, error: { code: 'io-error', message: `The desk did not answer (${(err as Error).message}). Is \`wager-desk serve\` still running?` } };
    }
    if (response.status === 401) {
      setConnection('denied', STALE_TOKEN.message);
      return { ok: false, error: STALE_TOKEN };
    }
    return readAnswer(method, response);
  }

  const eventListeners = new Set<DeskEventListener>();
  const connectionListeners = new Set<(state: ConnectionState, detail: string | null) => void>();
  let connection: ConnectionState = 'connecting';
  let connectionDetail: string | null = null;
  let streaming = false;

  const setConnection = (state: ConnectionState, detail: string | null): void => {
    if (state === connection && detail === connectionDetail) return;
    // Once refused, stay refused: a later stream hiccup must not hide why nothing works.
    if (connection === 'denied') return;
    connection = state;
    connectionDetail = detail;
    for (const l of connectionListeners) l(state, detail);
  };

  const known = new Set<string>(DESK_EVENTS);
  const parse = createSseParser(({ event, data }) => {
    if (!known.has(event)) return;
    let payload: unknown;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    for (const l of eventListeners) l(event as DeskEventName, payload as never);
  });

  async function streamOnce(): Promise<string> {
    const response = await fetch('/api/events', { headers: { authorization, accept: 'text/event-stream' }, cache: 'no-store' });
    if (response.status === 401) throw new Error('the access token was refused');
    if (!response.ok || !response.body) return `HTTP ${response.status}`;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'the desk closed the event stream';
      setConnection('live', null);
      parse(value);
    }
  }

  async function keepStreaming(): Promise<void> {
    if (streaming || !token) return;
    streaming = true;
    let delay = 500;
    for (;;) {
      setConnection('connecting', null);
      let reason: string;
      try {
        reason = await streamOnce();
        delay = 500;
      } catch (err) {
        reason = (err as Error).message;
        if (reason === 'the access token was refused') {
          setConnection('denied', STALE_TOKEN.message);
          streaming = false;
          return;
        }
      }
      setConnection(
        'offline',
        `Lost contact with the desk (${reason}): new captures will not appear until it is back. Is \`wager-desk serve\` still running? Retrying…`,
      );
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(MAX_RETRY_MS, delay * 2);
    }
  }

  const methods = Object.fromEntries(DESK_METHODS.map((m) => [m, (...args: unknown[]) => call(m, args)])) as unknown as DeskApi;

  return {
    ...methods,
    transport: 'web',
    onEvent(listener) {
      eventListeners.add(listener);
      void keepStreaming();
      return () => eventListeners.delete(listener);
    },
    onConnection(listener) {
      connectionListeners.add(listener);
      if (!token) setConnection('denied', NO_TOKEN.message);
      listener(connection, connectionDetail);
      return () => connectionListeners.delete(listener);
    },
  };
}
