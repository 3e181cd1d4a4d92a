// The composer's draft: where it came from, the request as edited (headers, exact body bytes), how it
// is signed and where it goes, and what came back. The custom secret is deliberately absent: the
// component holds it for the moment of sending and it never enters the store.
import {
  DEFAULT_TEST_USER,
  SIGNATURE_HEADER,
  type DeskError,
  type DiffEntry,
  type Draft,
  type ExchangeDetail,
  type ResultValue,
  type SavedRequest,
  type SendOptions,
  type SignatureMode,
  type TemplateKind,
} from '../../src-main/shared/model';
import { desk } from '../api';
import { base64OfText, textOfBase64 } from '../components/body-codec';
import { outcomeOfError, type SendOutcome } from './outcome';
import type { SliceCreator } from './types';

export type ComposerOrigin =
  | { kind: 'capture'; id: number }
  | { kind: 'follow-up'; payId: number; result: ResultValue }
  | { kind: 'template'; template: TemplateKind; userId: string }
  | { kind: 'saved'; name: string };

/** The active profile's operator URL, or a URL typed for this send. */
export type TargetChoice = { mode: 'profile' } | { mode: 'url'; url: string };

/** The URL typed for a send, when one is (else the desk uses the profile's operator URL). */
export function typedTargetOf(choice: TargetChoice): string | undefined {
  const url = choice.mode === 'url' ? choice.url.trim() : '';
  return url === '' ? undefined : url;
}

export interface ComposerSlice {
  composerOrigin: ComposerOrigin | null;
  /** The draft as the desk made it: what "Reset" returns to, and what tells a replay from a send. */
  composerLoaded: Draft | null;
  /** The draft as edited; bodyBase64 always holds the exact bytes that will be sent. */
  composerDraft: Draft | null;
  /** The body as text for the editor; null when the bytes are not UTF-8 (edited as base64 then). */
  composerText: string | null;
  /** Bumped when another draft is loaded or the draft is reset, so the editor starts afresh. */
  composerGeneration: number;
  composerLoading: boolean;
  composerError: DeskError | null;
  composerSignature: SignatureMode;
  composerTarget: TargetChoice;
  composerSending: boolean;
  composerSent: ExchangeDetail | null;
  composerDiff: DiffEntry[] | null;
  composerDiffError: DeskError | null;
  openComposerFromExchange(id: number): Promise<void>;
  openComposerFollowUp(payId: number, result: ResultValue): Promise<void>;
  openComposerTemplate(kind: TemplateKind, userId?: string): Promise<void>;
  /** Loads a saved request as the draft, in the signature mode it was saved with. */
  openComposerSaved(saved: SavedRequest): Promise<void>;
  setComposerText(text: string): void;
  setComposerBase64(base64: string): void;
  setComposerRequest(patch: Partial<Pick<Draft, 'method' | 'path' | 'headers'>>): void;
  setComposerSignature(mode: SignatureMode): void;
  setComposerTarget(choice: TargetChoice): void;
  resetComposerDraft(): void;
  /** The send options the preview, the cURL copy and the send share. */
  composerSendOptions(customSecret: string): SendOptions;
  sendComposer(options: { customSecret: string; confirmedProduction?: boolean }): Promise<SendOutcome>;
  clearComposerError(): void;
}

/** The latest draft request: an answer to an older one is dropped. */
let request = 0;
/** The editor's remount key (composerGeneration); a Reset bumps it without dropping a load under way. */
let generation = 0;

const sameHeaders = (a: Draft['headers'], b: Draft['headers']): boolean => JSON.stringify(a) === JSON.stringify(b);

const signatureOf = (headers: Draft['headers']): string | null => headers.find(([n]) => n.toLowerCase() === SIGNATURE_HEADER)?.[1] ?? null;

/**
 * The signature header follows the signature mode, unless the user changed, added or removed it in the
 * headers: then theirs is sent as given (the desk notes it on the sent exchange).
 */
export function signatureEditOf(draft: Draft | null, loaded: Draft | null): SendOptions['headerEdits'] | null {
  if (!draft || !loaded) return null;
  const now = signatureOf(draft.headers);
  if (now === signatureOf(loaded.headers)) return null;
  return now === null ? { drop: [SIGNATURE_HEADER] } : { set: [[SIGNATURE_HEADER, now]] };
}

export const createComposerSlice: SliceCreator<ComposerSlice> = (set, get) => {
  const load = async (origin: ComposerOrigin, fetch: () => ReturnType<typeof desk.draftTemplate>): Promise<void> => {
    const mine = ++request;
    set({ view: 'composer', composerLoading: true, composerError: null });
    const r = await fetch();
    if (mine !== request) return;
    if (!r.ok) {
      set({ composerLoading: false, composerError: r.error });
      return;
    }
    set({
      composerOrigin: origin,
      composerLoaded: r.value,
      composerDraft: r.value,
      composerText: textOfBase64(r.value.bodyBase64),
      composerGeneration: ++generation,
      composerLoading: false,
      composerSent: null,
      composerDiff: null,
      composerDiffError: null,
      composerSignature: 'resign',
    });
  };

  return {
    composerOrigin: null,
    composerLoaded: null,
    composerDraft: null,
    composerText: null,
    composerGeneration: 0,
    composerLoading: false,
    composerError: null,
    composerSignature: 'resign',
    composerTarget: { mode: 'profile' },
    composerSending: false,
    composerSent: null,
    composerDiff: null,
    composerDiffError: null,

    openComposerFromExchange: (id) => load({ kind: 'capture', id }, () => desk.draftFromExchange(id)),
    openComposerFollowUp: (payId, result) => load({ kind: 'follow-up', payId, result }, () => desk.draftFollowUp(payId, result)),
    async openComposerSaved(saved) {
      const draft: Draft = { method: saved.method, path: saved.path, headers: saved.headers, bodyBase64: saved.bodyBase64, sourceId: null };
      await load({ kind: 'saved', name: saved.name }, () => Promise.resolve({ ok: true as const, value: draft }));
      set({ composerSignature: saved.signature });
    },
    openComposerTemplate(kind, userId) {
      const user = userId?.trim() || get().detail?.userId || DEFAULT_TEST_USER;
      return load({ kind: 'template', template: kind, userId: user }, () => desk.draftTemplate(kind, user));
    },

    setComposerText(text) {
      const draft = get().composerDraft;
      if (!draft) return;
      // The exact UTF-8 bytes of what is in the editor: never parsed and re-serialized.
      set({ composerText: text, composerDraft: { ...draft, bodyBase64: base64OfText(text) } });
    },

    setComposerBase64(bodyBase64) {
      const draft = get().composerDraft;
      if (draft) set({ composerDraft: { ...draft, bodyBase64 }, composerText: textOfBase64(bodyBase64) });
    },

    setComposerRequest(patch) {
      const draft = get().composerDraft;
      if (draft) set({ composerDraft: { ...draft, ...patch } });
    },

    setComposerSignature: (composerSignature) => set({ composerSignature }),
    setComposerTarget: (composerTarget) => set({ composerTarget }),

    resetComposerDraft() {
      const loaded = get().composerLoaded;
      if (!loaded) return;
      set({ composerDraft: loaded, composerText: textOfBase64(loaded.bodyBase64), composerGeneration: ++generation });
    },

    composerSendOptions(customSecret) {
      const { composerSignature, composerTarget, composerDraft, composerLoaded } = get();
      const to = typedTargetOf(composerTarget);
      const headerEdits = signatureEditOf(composerDraft, composerLoaded);
      return {
        signature: composerSignature,
        ...(headerEdits ? { headerEdits } : {}),
        ...(to ? { to } : {}),
        ...(composerSignature === 'custom' ? { customSecret } : {}),
      };
    },

    async sendComposer({ customSecret, confirmedProduction }) {
      const { composerDraft: draft, composerLoaded: loaded, composerOrigin: origin } = get();
      if (!draft || !loaded || !origin) return { status: 'failed' };
      const options: SendOptions = { ...get().composerSendOptions(customSecret), ...(confirmedProduction ? { confirmedProduction: true } : {}) };
      // Same method, path and headers as the desk drafted them: a replay of the source (origin
      // "replay"), with the edited bytes. Anything else is sent as a draft, still linked to its source.
      const sameFrame = draft.method === loaded.method && draft.path === loaded.path && sameHeaders(draft.headers, loaded.headers);
      const bodyChanged = draft.bodyBase64 !== loaded.bodyBase64;
      set({ composerSending: true, composerError: null });
      let r;
      if (sameFrame && origin.kind === 'capture') {
        r = await desk.replay({ sourceId: origin.id, ...(bodyChanged ? { bodyBase64: draft.bodyBase64 } : {}), ...options });
      } else if (sameFrame && origin.kind === 'follow-up') {
        // A follow-up is built afresh on every call (new roomId): send the bytes on screen.
        r = await desk.replay({ sourceId: origin.payId, followUp: origin.result, bodyBase64: draft.bodyBase64, ...options });
      } else {
        r = await desk.send({ draft, ...options });
      }
      if (!r.ok) {
        const outcome = outcomeOfError(r.error);
        set({ composerSending: false, composerError: outcome.status === 'confirm' ? null : r.error });
        return outcome;
      }
      const sent = r.value;
      set({ composerSending: false, composerSent: sent, composerDiff: null, composerDiffError: null });
      if (sent.sourceId !== null) {
        const d = await desk.diffExchanges(sent.sourceId, sent.id);
        if (get().composerSent?.id === sent.id) set(d.ok ? { composerDiff: d.value } : { composerDiffError: d.error });
      }
      return { status: 'done' };
    },

    clearComposerError: () => set({ composerError: null }),
  };
};
