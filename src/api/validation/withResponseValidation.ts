import type { OutgoingHttpHeaders, RequestListener, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { problem, writeProblem } from '../problem.ts';
import type { ResponseValidator } from './createResponseValidator.ts';

type Chunk = string | Buffer | Uint8Array;

/**
 * Wraps the whole request listener (lanes, cache and Express alike) and checks every response
 * against the spec before it leaves: the response is held until it ends, then sent as it was,
 * or, when it violates the spec, replaced by a 500 problem naming each violation (and logged).
 * For tests (every API suite) and VALIDATE_RESPONSES=true; it costs a copy of every body.
 */
export function withResponseValidation(handler: RequestListener, validate: ResponseValidator, logger?: Logger): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    const end = res.end.bind(res) as (body?: Buffer) => ServerResponse;
    const writeHead = res.writeHead;
    const toBuffer = (chunk: Chunk, encoding?: BufferEncoding) => (typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : Buffer.from(chunk));

    res.writeHead = ((statusCode: number, ...rest: unknown[]) => {
      res.statusCode = statusCode;
      if (typeof rest[0] === 'string') res.statusMessage = rest.shift() as string;
      const headers = rest[0] as OutgoingHttpHeaders | (string | string[])[] | undefined;
      if (Array.isArray(headers)) {
        for (let i = 0; i + 1 < headers.length; i += 2) res.setHeader(String(headers[i]), headers[i + 1]!);
      } else if (headers) {
        for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
      }
      return res;
    }) as ServerResponse['writeHead'];

    res.write = ((chunk: Chunk, encoding?: BufferEncoding | ((e?: Error | null) => void), callback?: (e?: Error | null) => void) => {
      chunks.push(toBuffer(chunk, typeof encoding === 'string' ? encoding : undefined));
      const done = typeof encoding === 'function' ? encoding : callback;
      if (done) queueMicrotask(() => done(null));
      return true;
    }) as ServerResponse['write'];

    res.end = ((chunk?: Chunk | (() => void), encoding?: BufferEncoding | (() => void), callback?: () => void) => {
      if (typeof chunk === 'function') [callback, chunk] = [chunk, undefined];
      if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
      if (chunk !== undefined && chunk !== null) chunks.push(toBuffer(chunk, encoding));
      const body = Buffer.concat(chunks);
      // Node writes the head through this.writeHead: the real one, now that everything is decided.
      res.writeHead = writeHead;
      const violations = validate({ method: req.method ?? 'GET', url: req.url ?? '/', status: res.statusCode, headers: res.getHeaders() as Record<string, string>, body });
      if (violations.length === 0) {
        end(body);
      } else {
        logger?.error({ violations, url: req.url }, 'response does not match the spec');
        for (const name of res.getHeaderNames()) if (name !== 'x-request-id') res.removeHeader(name);
        res.end = end as ServerResponse['end'];
        writeProblem(res, problem(500, 'internal', `The response does not match the spec: ${violations.join(' | ')}`));
      }
      if (callback) res.once('finish', callback);
      return res;
    }) as ServerResponse['end'];

    handler(req, res);
  };
}
