// Types for renderer-build.mjs, for the tests and benchmarks that import it.
export declare function freshBuiltRenderer(root: string, outDir?: string): string | null;
export declare function buildRendererInto(root: string, outDir: string): Promise<void>;
