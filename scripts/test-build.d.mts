// Types for test-build.mjs, for the tests that import it.
export declare const TEST_BUILD_DIR: string;
