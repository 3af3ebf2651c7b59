// Entry point of `cdk synth` / `cdk deploy` (cdk.json runs it with tsx).
import { buildApp } from './app.js';

buildApp().app.synth();
