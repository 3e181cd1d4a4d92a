// Types for ensure-electron-native.mjs, for the tests that import it.
export declare const NATIVE_FILE: 'better_sqlite3.node';
export declare function electronVersion(root: string): string | null;
export declare function electronBinaryPresent(root: string): boolean;
export declare function nativeCopyPath(root: string, version: string): string;

export type RunCommand = (command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv) => Promise<boolean>;
export declare const runCommand: RunCommand;

export interface BuildStrategy {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
}
export declare function buildStrategies(root: string, target: { version: string; arch: string; platform: string }): BuildStrategy[];

export interface EnsureResult {
  status: 'no-electron' | 'present' | 'built' | 'failed';
  path?: string;
  message: string;
}
export declare function ensureElectronNative(options: {
  root: string;
  force?: boolean;
  arch?: string;
  platform?: string;
  run?: RunCommand;
  log?: (line: string) => void;
}): Promise<EnsureResult>;
