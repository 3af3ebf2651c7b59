/**
 * What the deployed console's distribution answers with beside the files (infra/constructs/console.ts): the content
 * security policy, and the viewer-request function that sends a navigation (a path without a file extension) to
 * index.html while a missing file stays a 404. Plain values and strings, so tests read them without a synth.
 */

/** The hosts the page may reach; each a URL origin or a host pattern (`https://*.execute-api.<region>...`). */
export interface ConsoleOrigins {
  /** The API's origin, or the pattern of every HTTP API of the region (docs/reference/console.md: why a pattern). */
  api: string;
  /** The identity pool's endpoint: `https://cognito-identity.<region>.amazonaws.com`. */
  identity: string;
  /** The user pool's hosted sign-in: `https://<prefix>.auth.<region>.amazoncognito.com` (tokens, logout). */
  auth: string;
}

/**
 * The console's content security policy: its own scripts and styles only (no inline script or style, no eval),
 * images from itself or data: URLs (the chart), calls only to itself, the API, the identity pool and the hosted
 * sign-in; never framed; forms post only to itself and the hosted sign-in.
 */
export const consoleContentSecurityPolicy = (origins: ConsoleOrigins): string =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${origins.api} ${origins.identity} ${origins.auth}`,
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "object-src 'none'",
    `form-action 'self' ${origins.auth}`,
  ].join('; ');

/**
 * The viewer-request function (CloudFront Functions, JavaScript runtime 2.0): a path whose last segment has no dot
 * (`/orders`, `/plans/p1`) is a page of the single-page app and is served index.html; a path with one
 * (`/app.js`, `/missing.png`) is a file and is served as it is, a 404 when it is missing. `/` is the default root
 * object already.
 */
export const SPA_NAVIGATION_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  var last = uri.substring(uri.lastIndexOf('/') + 1);
  if (uri !== '/' && last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;
