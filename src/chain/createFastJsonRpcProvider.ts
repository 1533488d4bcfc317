// ethers' JsonRpcProvider with its transport (`_send`, the documented override point) on Node's
// fetch: ethers' own HTTP layer joins a response's chunks by copying the whole body at every
// chunk and decodes UTF-8 in JavaScript, which for a large eth_getLogs answer (megabytes) costs
// more than the node took to answer. JSON-RPC errors stay ethers' (it maps the results); an HTTP
// status that is not 2xx throws with the status in `info.responseStatus`, as ethers' would.
import { JsonRpcProvider, type JsonRpcApiProviderOptions, type JsonRpcError, type JsonRpcPayload, type JsonRpcResult, type Network } from 'ethers';

export function createFastJsonRpcProvider(url: string, timeoutMs: number, network: Network, options: JsonRpcApiProviderOptions): JsonRpcProvider {
  return new FastJsonRpcProvider(url, timeoutMs, network, options);
}

class FastJsonRpcProvider extends JsonRpcProvider {
  readonly #url: string;
  readonly #timeoutMs: number;

  constructor(url: string, timeoutMs: number, network: Network, options: JsonRpcApiProviderOptions) {
    super(url, network, options);
    this.#url = url;
    this.#timeoutMs = timeoutMs;
  }

  override async _send(payload: JsonRpcPayload | JsonRpcPayload[]): Promise<JsonRpcResult[]> {
    let response: Response;
    try {
      response = await fetch(this.#url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      // An abort by the timeout reads as one, for the retry policy (classifyRpcError).
      if ((error as { name?: string }).name === 'TimeoutError') throw Object.assign(new Error('request timeout', { cause: error }), { code: 'TIMEOUT' });
      throw error;
    }
    const text = await response.text();
    if (!response.ok) {
      throw Object.assign(new Error(`server response ${response.status} ${response.statusText}`), {
        code: 'SERVER_ERROR',
        info: { responseStatus: response.status, responseBody: text.slice(0, 500) },
      });
    }
    // Results and errors alike: ethers' declared type names results only, and it maps the errors.
    const json = JSON.parse(text) as JsonRpcResult | JsonRpcError | (JsonRpcResult | JsonRpcError)[];
    return (Array.isArray(json) ? json : [json]) as JsonRpcResult[];
  }
}
