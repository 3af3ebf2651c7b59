/**
 * The entry of the built command line, client/dist/gtt.js (client/bundle-cli.mjs bundles it): runs the program
 * whatever file it is loaded from (`npm run gtt`'s launcher imports it; the package's `gtt` bin runs it).
 */
import { runAsProgram } from './main.js';

await runAsProgram();
