/** The console's entry: read config.json, start the session it asks for, render the app. */
import { html } from 'htm/preact';
import { render } from 'preact';

import { createApi, describeError } from './api.js';
import { App } from './app.js';
import { apiBaseUrl, loadConfig, startSession } from './auth/index.js';

const root = document.getElementById('app')!;

try {
  const config = await loadConfig();
  const session = await startSession(config);
  root.textContent = '';
  render(html`<${App} api=${createApi(apiBaseUrl(config), session.fetch)} session=${session} />`, root);
} catch (error) {
  root.textContent = '';
  render(html`<p class="problem" role="alert">The console could not start: ${describeError(error)}</p>`, root);
}
