import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';

type HeaderValue = string | number | readonly string[];
export type HeaderList = readonly (readonly [string, HeaderValue])[];

/**
 * Runs header-only middleware (helmet, CORS with a fixed origin) once against a stand-in GET
 * request and returns one middleware that sets the same headers: the same answer, without a
 * chain of a dozen closures on every request.
 */
export function staticHeaders(...middleware: RequestHandler[]): RequestHandler {
  const list = recordHeaders(...middleware);
  return (_req, res, next) => {
    for (const [name, value] of list) res.setHeader(name, value);
    next();
  };
}

/** The headers header-only middleware sets on a stand-in GET request, recorded once. */
export function recordHeaders(...middleware: RequestHandler[]): HeaderList {
  const headers = new Map<string, HeaderValue>();
  const fakeRes = {
    setHeader: (name: string, value: HeaderValue) => void headers.set(name.toLowerCase(), value),
    getHeader: (name: string) => headers.get(name.toLowerCase()),
    removeHeader: (name: string) => void headers.delete(name.toLowerCase()),
    hasHeader: (name: string) => headers.has(name.toLowerCase()),
    statusCode: 200,
    end: () => {
      throw new Error('staticHeaders: the middleware answered instead of setting headers');
    },
  };
  const fakeReq = { method: 'GET', url: '/', headers: { origin: 'https://example.org' } };
  for (const mw of middleware) {
    let called = false;
    mw(fakeReq as never, fakeRes as never, () => void (called = true));
    if (!called) throw new Error('staticHeaders: the middleware did not call next() synchronously');
  }
  return [...headers];
}

/** Applies a middleware only when `when` holds (e.g. compression only for clients that accept it). */
export function only(when: (req: IncomingMessage, res: ServerResponse) => boolean, middleware: RequestHandler): RequestHandler {
  return (req, res, next) => (when(req, res) ? middleware(req, res, next) : next());
}
