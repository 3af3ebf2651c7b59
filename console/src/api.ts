/**
 * The API as the console calls it: openapi-fetch typed by the client's generated document (client/generated/), over
 * the session's `fetch`. Errors become one `ApiError` with the gateway's code and message. (The typed client itself,
 * client/client.ts, reads node:crypto and process.env, which a browser does not have.)
 */
import createClient, { type Client } from 'openapi-fetch';

import type { paths } from '../../client/generated/openapi.js';

export type Api = Client<paths>;

export const createApi = (baseUrl: string, fetchApi: typeof fetch): Api =>
  createClient<paths>({ baseUrl, fetch: (request: Request) => fetchApi(request) });

/** A failed call: the HTTP status and the error contract's code, message and the broker's own words, if any. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
    readonly brokerMessage?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The answer's data, or an ApiError. */
export const ok = async <T>(call: Promise<Answer<T>>): Promise<T> => {
  const { data, error, response } = await call;
  if (response.ok && data !== undefined) return data;
  const body = error as
    | { error?: { code?: string; message?: string; details?: unknown; brokerMessage?: string }; message?: string }
    | undefined;
  throw new ApiError(
    response.status,
    body?.error?.code ?? `HTTP_${response.status}`,
    body?.error?.message ?? body?.message ?? response.statusText,
    body?.error?.details,
    body?.error?.brokerMessage,
  );
};

/** A message for the page from anything thrown. */
export const describeError = (error: unknown): string =>
  error instanceof ApiError
    ? `${error.code}: ${error.message}${error.brokerMessage ? ` The broker said: ${error.brokerMessage}` : ''}`
    : error instanceof Error
      ? error.message
      : String(error);

/** A fresh Idempotency-Key (one per order the trader places). */
export const newKey = (): string => crypto.randomUUID();

/** Every page of a paged list, following `nextCursor` (bounded: a console shows at most `maxPages`). */
export const allPages = async <T>(
  page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
  maxPages = 20,
): Promise<T[]> => {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < maxPages; n++) {
    const got = await page(cursor);
    items.push(...got.items);
    if (!got.nextCursor) break;
    cursor = got.nextCursor;
  }
  return items;
};
