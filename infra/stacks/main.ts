// Entry point of `cdk synth` / `cdk deploy` (cdk.json runs it with tsx). A setting the app refuses is one line on
// stderr naming it, not a stack trace.
import { buildApp } from './app.js';

try {
  buildApp().app.synth();
} catch (error) {
  console.error(`gtt-gateway: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
