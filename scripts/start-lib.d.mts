// Types for start-lib.mjs, for the tests that import it.
export declare const WEB_MODE_NOTICE: string;
export declare const BUILD_INPUTS: string[];
export declare const BUILD_OUTPUTS: string[];
export declare function needsBuild(root: string): boolean;
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
