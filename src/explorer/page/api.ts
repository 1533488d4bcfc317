// The page's only ways to the API: the package's typed REST client and its JSON-RPC client
// (src/client), both over the paced fetch, on this page's own origin.
import { createRpcClient, createTokenApiClient, isProblem, type Problem, type RpcError } from '../../client/index.ts';
import { h } from './dom.ts';
import { pacedFetch } from './pacedFetch.ts';

export const api = createTokenApiClient({ baseUrl: location.origin, fetch: (request) => pacedFetch(request) });
export const rpc = createRpcClient({ baseUrl: location.origin, fetch: pacedFetch });

/** An answer that failed, as the page shows it: the problem's title and detail. */
export class ApiProblem extends Error {
  constructor(
    readonly title: string,
    readonly detail: string | undefined,
    readonly status: number,
  ) {
    super(detail ? `${title}: ${detail}` : title);
  }
}

/**
 * The data of an openapi-fetch answer, or an ApiProblem built from its problem+json body
 * (any other body, e.g. a proxy's HTML page, is named by its status).
 */
export function dataOf<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  if (answer.data !== undefined && answer.response.ok) return answer.data;
  throw problemOf(answer.error, answer.response);
}

export function problemOf(error: unknown, response: Response): ApiProblem {
  const body = error as Partial<Problem> | RpcError | undefined;
  if (body && typeof body === 'object' && 'title' in body && isProblem(body as Problem)) {
    const p = body as Problem;
    return new ApiProblem(p.title, p.detail, p.status);
  }
  if (body && typeof body === 'object' && 'code' in body && 'message' in body) {
    return new ApiProblem(`JSON-RPC error ${body.code}`, body.message, response.status);
  }
  return new ApiProblem(`HTTP ${response.status}`, response.statusText || undefined, response.status);
}

/** A failure as a block of the page: the problem's title and detail (role=alert). */
export function problemBox(error: unknown): HTMLElement {
  const p = error instanceof ApiProblem ? error : new ApiProblem('The request failed', error instanceof Error ? error.message : String(error), 0);
  return h('div', { class: 'problem', role: 'alert' }, h('strong', { class: 'problem-title' }, p.title), p.detail ? h('p', { class: 'problem-detail' }, p.detail) : null);
}
