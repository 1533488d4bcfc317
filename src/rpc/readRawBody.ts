// Reads the request body as UTF-8 text with a byte limit. The router is mounted before any body
// parser, so it owns the stream. An oversized body is drained (not buffered) so the client can
// still read our 413 answer; a client that keeps sending far beyond the limit is cut off.
import type { IncomingMessage } from 'node:http';

export class BodyTooLargeError extends Error {
  override name = 'BodyTooLargeError';
  readonly limit: number;
  constructor(limit: number) {
    super(`request body larger than ${limit} bytes`);
    this.limit = limit;
  }
}

export class BodyTimeoutError extends Error {
  override name = 'BodyTimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`request body not received within ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** Reads the body; rejects with BodyTooLargeError past `limit` bytes, BodyTimeoutError past `timeoutMs`. */
export function readRawBody(req: IncomingMessage, limit: number, timeoutMs = 10_000): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const body = new Promise<string>((resolve, reject) => {
    timer = setTimeout(() => {
      req.pause();
      reject(new BodyTimeoutError(timeoutMs));
    }, timeoutMs);
    const declared = Number(req.headers['content-length']);
    let tooLarge = Number.isFinite(declared) && declared > limit;
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) tooLarge = true;
      if (tooLarge) {
        chunks.length = 0;
        if (size > limit * 16) req.destroy(); // do not drain forever
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => (tooLarge ? reject(new BodyTooLargeError(limit)) : resolve(Buffer.concat(chunks).toString('utf8'))));
    req.on('error', reject);
    req.on('close', () => {
      if (!req.readableEnded) reject(new Error('request aborted'));
    });
  });
  return body.finally(() => clearTimeout(timer));
}
