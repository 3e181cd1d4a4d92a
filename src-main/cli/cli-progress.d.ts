// The part of cli-progress (which ships no types) that `redeliver` uses.
declare module 'cli-progress' {
  export interface Options {
    format?: string;
    stream?: NodeJS.WritableStream;
    hideCursor?: boolean;
    clearOnComplete?: boolean;
    etaBuffer?: number;
  }
  export class SingleBar {
    constructor(options: Options, preset?: unknown);
    start(total: number, startValue: number, payload?: Record<string, unknown>): void;
    update(value: number, payload?: Record<string, unknown>): void;
    setTotal(total: number): void;
    stop(): void;
  }
  export const Presets: { shades_classic: unknown };
}
