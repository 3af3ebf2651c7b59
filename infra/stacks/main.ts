// Entry point of `cdk synth` / `cdk deploy` (cdk.json runs it with tsx). A setting the app refuses is one line on
// stderr naming it, not a stack trace; the bundling of each function is one count, not a block each.
import { buildApp } from './app.js';
import { quietBundling } from './quiet-bundling.js';

const bundled = quietBundling();
try {
  buildApp().app.synth();
  bundled();
} catch (error) {
  bundled();
  console.error(`gtt-gateway: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
