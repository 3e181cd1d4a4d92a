// Types for electron-install.mjs, for the tests that import it.
import type { ElectronInstaller } from './start-lib.mjs';
export declare function electronDownloadBase(env?: NodeJS.ProcessEnv): string;
export declare function reachDownloadHost(url: string, signal?: AbortSignal): Promise<string | null>;
export declare function runElectronInstaller(root: string, signal?: AbortSignal, env?: NodeJS.ProcessEnv): Promise<string | null>;
export declare function electronInstaller(root: string, env?: NodeJS.ProcessEnv): ElectronInstaller;
