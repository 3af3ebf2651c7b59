/**
 * The entry of the built command line, client/dist/gtt.js (client/bundle-cli.mjs bundles it): runs the program
 * whatever file it is loaded from (`npm run gtt`'s launcher imports it; the package's `gtt` bin runs it).
 */
import { basename } from 'node:path';
import process from 'node:process';

import { nameProgram } from './command.js';
import { runAsProgram } from './main.js';

// Started as the package's bin (node_modules/.bin/gtt, the name npx and a global install give it): usage says `gtt`.
// Through npm run gtt's launcher, or as dist/gtt.js, the repository's script is the way to run it again.
if (basename(process.argv[1] ?? '') === 'gtt') nameProgram('gtt');
await runAsProgram();
