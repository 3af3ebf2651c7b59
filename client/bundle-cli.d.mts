// The types of bundle-cli.mjs, for the TypeScript that imports it (test/support/cli-bundle.ts, the bench).
export declare const CLI_ENTRY: string;
export declare const CLI_EXTERNAL: readonly string[];
export declare const metaOf: (outfile: string) => string;
export declare const buildCli: (root: string, outfile: string) => Promise<void>;
export declare const cliIsStale: (root: string, outfile: string) => boolean;
export declare const ensureCli: (root: string, outfile: string) => Promise<boolean>;
