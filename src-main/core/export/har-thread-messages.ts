// What the desk and its export thread say to each other (har-thread.ts, har-thread-main.ts).
import type { HarSlice } from './har-entries-text';

export interface HarThreadJob {
  job: number;
  slice: HarSlice;
  secrets: readonly string[];
}

export type HarThreadReply = { job: number; ok: true; text: string } | { job: number; ok: false; message: string };
