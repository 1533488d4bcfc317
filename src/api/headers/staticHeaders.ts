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
  return setHeaders(recordHeaders(...middleware));
}

/** A middleware that sets a fixed list of headers. */
export function setHeaders(list: HeaderList): RequestHandler {
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

/** Applies middleware, in order, only when `when` holds (e.g. compression only for clients that accept it). */
export function only(when: (req: IncomingMessage, res: ServerResponse) => boolean, ...middleware: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    if (!when(req, res)) return next();
    const run = (i: number): void => {
      if (i === middleware.length) return next();
      void middleware[i]!(req, res, (err?: unknown) => (err ? next(err) : run(i + 1)));
    };
    run(0);
  };
}
