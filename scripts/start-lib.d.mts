// Types for start-lib.mjs, for the tests that import it.
export declare const WEB_MODE_NOTICE: string;
export declare const BUILD_INPUTS: string[];
export declare const BUILD_OUTPUTS: string[];
export declare function needsBuild(root: string, outDir?: string): boolean;
/** The newest modification time of a file, or of anything below a folder; 0 when it does not exist. */
export declare function newestMtime(path: string): number;
export declare function electronExecutable(root: string): string;
export interface Launch {
  mode: 'electron' | 'web';
  command: string;
  args: string[];
  notice?: string;
}
export declare function chooseLaunch(root: string, argv: string[], execPath?: string): Launch;
export declare function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare function webModeNotice(reason: string): string;
export declare const ELECTRON_REACH_TIMEOUT_MS: number;
export declare const ELECTRON_INSTALL_TIMEOUT_MS: number;
/** Resolves null when `task` succeeded, else its reason; `gave up after N s` past `ms` (the task's signal aborted). */
export declare function withDeadline(task: (signal: AbortSignal) => Promise<string | null>, ms: number, waitingFor: string): Promise<string | null>;
export interface ElectronInstaller {
  /** Null when the download host answers, else why not. */
  reach(signal: AbortSignal): Promise<string | null>;
  /** Null when Electron's installer put the binary in place, else why not. */
  install(signal: AbortSignal): Promise<string | null>;
}
export type Obtained = { ok: true } | { ok: false; reason: string };
export declare function obtainElectron(options: {
  root: string;
  installer: ElectronInstaller;
  env?: NodeJS.ProcessEnv;
  reachTimeoutMs?: number;
  installTimeoutMs?: number;
  log?: (line: string) => void;
}): Promise<Obtained>;
export declare function prepareLaunch(options: {
  root: string;
  argv: string[];
  obtain(): Promise<Obtained>;
  ensureNative(options: { root: string }): Promise<{ status: 'no-electron' | 'present' | 'built' | 'failed' }>;
  execPath?: string;
}): Promise<Launch>;
