import http from 'node:http';
import https from 'node:https';

export type PostResult = { status: number; text: string };

/** A timeout of the whole exchange (connect, response and body), as an error with that name. */
export class PostTimeoutError extends Error {
  override name = 'TimeoutError';
}

/**
 * POSTs a JSON body over a keep-alive connection pool and reads the whole answer. node:http
 * rather than fetch: undici's fetch and web streams cost about a millisecond per call, which is
 * most of what a proxied lookup may add over the node itself.
 */
export function createJsonPoster(url: string, timeoutMs: number): (body: string) => Promise<PostResult> {
  const target = new URL(url);
  const secure = target.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' })
    : new http.Agent({ keepAlive: true, maxSockets: 64, scheduling: 'lifo' });
  const request = secure ? https.request : http.request;
  return (body) =>
    new Promise<PostResult>((resolve, reject) => {
      const req = request(target, {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', accept: 'application/json', 'content-length': Buffer.byteLength(body) },
      });
      const timer = setTimeout(() => req.destroy(new PostTimeoutError(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
      req.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      req.end(body);
    });
}
