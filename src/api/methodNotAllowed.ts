import type { RequestHandler, Router } from 'express';
import { sendProblem } from './problem.ts';
import { problem } from './problem.ts';

type RouteLayer = { match(path: string): unknown; route?: { methods: Record<string, boolean> } };

/**
 * The methods the routers' routes answer at `path` (GET adds HEAD, which Express routes to it);
 * empty when no route of theirs matches it.
 */
export function allowedMethods(routers: readonly Router[], path: string): string[] {
  const methods = new Set<string>();
  for (const router of routers) {
    for (const layer of router.stack as unknown as RouteLayer[]) {
      if (!layer.route || !layer.match(path)) continue;
      for (const [method, on] of Object.entries(layer.route.methods)) {
        if (!on || method === '_all') continue;
        methods.add(method.toUpperCase());
        if (method === 'get') methods.add('HEAD');
      }
    }
  }
  return [...methods];
}

/**
 * A path that routes outside the OpenAPI document (health, metrics, docs, explorer) serve, asked
 * with a method none of them answers (PUT, DELETE, PATCH, TRACE, ...): 405 with Allow, as the
 * API's own operations answer, instead of the 404 of a path that does not exist.
 */
export function methodNotAllowed(routers: readonly Router[]): RequestHandler {
  return (req, res, next) => {
    if (req.method === 'GET' || req.method === 'HEAD' || req.method === 'OPTIONS') return next();
    const allowed = allowedMethods(routers, req.path);
    if (allowed.length === 0 || allowed.includes(req.method)) return next();
    res.setHeader('Allow', allowed.join(', '));
    sendProblem(res, problem(405, 'method-not-allowed', `${req.method} is not allowed on ${req.path}; allowed: ${allowed.join(', ')}.`));
  };
}
