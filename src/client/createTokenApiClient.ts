import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from '../../generated/openapi/types.ts';

export type TokenApiClient = Client<paths>;

export type TokenApiClientOptions = {
  /** Where the API is served, e.g. `http://localhost:3000`. */
  baseUrl: string;
  /** A fetch implementation (tests, proxies, retries); the global fetch by default. */
  fetch?: ClientOptions['fetch'];
  /** Headers sent with every request. */
  headers?: ClientOptions['headers'];
};

/**
 * A typed client for the REST API: paths, parameters, bodies and errors come from the
 * types generated from spec/openapi.yaml, so it follows the spec without hand-written code.
 * Arrays in the query are sent comma-separated (`addresses=0xa,0xb`), the spec's
 * `style: form, explode: false`. Supply endpoints answer text/plain by default: pass
 * `parseAs: 'text'` (or the query parameter `format: 'json'`) for them.
 */
export function createTokenApiClient(options: TokenApiClientOptions): TokenApiClient {
  return createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    headers: options.headers,
    querySerializer: { array: { style: 'form', explode: false } },
  });
}
