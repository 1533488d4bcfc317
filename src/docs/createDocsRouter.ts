import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { UnavailableError } from '../errors/index.ts';
import { defaultDocsDir, defaultSpecDir, docsFiles } from './docsPaths.ts';
import type { DocsFile } from './loadDocsSite.ts';
import { loadSpecDocuments, type SpecDocuments } from './loadSpecDocuments.ts';
import { resolveDocsSite } from './resolveDocsSite.ts';

export type DocsRouterOptions = {
  /** A prebuilt site (`npm run docs`); used when it was built from the current specs. Default docs-dist/. */
  docsDir?: string;
  /** Where openapi.yaml and openrpc.json are read. Default spec/. */
  specDir?: string;
  /** Where a fresh build is kept for the next process when docsDir is missing or stale. Default $TMPDIR/token-api-docs. */
  cacheDir?: string;
  /** After a failed build, how long requests answer 503 before the next attempt. Default 60000. */
  retryAfterMs?: number;
  /** Told about a failed build, once per attempt, and about a cache directory that cannot be written. */
  onError?: (error: unknown, what: 'build' | 'cache') => void;
};

export type DocsRouter = Router & {
  /** Locates or builds the site now (the composition root calls it once the server is ready). */
  warm(): Promise<void>;
};

/**
 * GET /docs/ (landing), /docs/rest.html, /docs/rpc.html and the spec copies under /docs/,
 * plus the raw documents at /openapi.yaml, /openapi.json and /openrpc.json.
 * The site is located or rendered (a few seconds) once — at `warm()`, or else on the first /docs
 * request — and held in memory; it never needs a writable directory. A failed build answers 503
 * with Retry-After until `retryAfterMs` has passed, then is tried again: never once per request.
 * Mount before the OpenAPI validator.
 */
export function createDocsRouter(options: DocsRouterOptions = {}): DocsRouter {
  const docsDir = options.docsDir ?? defaultDocsDir;
  const specDir = options.specDir ?? defaultSpecDir;
  const retryAfterMs = options.retryAfterMs ?? 60_000;
  let site: Promise<Map<string, DocsFile>> | undefined;
  let failedAt = 0;
  let specs: Promise<SpecDocuments> | undefined;
  // Single flight; a failure is kept for retryAfterMs.
  const loadSite = (): Promise<Map<string, DocsFile>> => {
    const wait = failedAt + retryAfterMs - Date.now();
    if (!site && wait > 0) return Promise.reject(new UnavailableError('The documentation site could not be built; see the server log.', Math.ceil(wait / 1000)));
    return (site ??= resolveDocsSite({ docsDir, specDir, cacheDir: options.cacheDir, onCacheWriteError: (e) => options.onError?.(e, 'cache') }).catch((error: unknown) => {
      site = undefined;
      failedAt = Date.now();
      options.onError?.(error, 'build');
      throw new UnavailableError('The documentation site could not be built; see the server log.', Math.ceil(retryAfterMs / 1000), { cause: error });
    }));
  };
  const loadSpecs = () =>
    (specs ??= loadSpecDocuments(specDir).catch((error: unknown) => {
      specs = undefined;
      throw error;
    }));

  const router = Router() as DocsRouter;
  router.warm = () => loadSite().then(() => undefined, () => undefined);
  router.get('/docs', (req, res, next) => {
    const [path = '', query] = req.originalUrl.split(/\?(.*)/s);
    // Relative links in the pages need the trailing slash.
    if (!path.endsWith('/')) return res.redirect(301, `${path}/${query ? `?${query}` : ''}`);
    loadSite().then((s) => sendDocsFile(req, res, s, 'index.html')).catch(next);
  });
  router.get('/docs/:file', (req, res, next) => {
    const file = req.params.file;
    if (!(docsFiles as readonly string[]).includes(file)) return next();
    loadSite().then((s) => sendDocsFile(req, res, s, file)).catch(next);
  });
  router.get('/openapi.yaml', (req, res, next) => {
    loadSpecs().then((s) => sendFresh(req, res, s.openapiYaml, 'application/yaml; charset=utf-8')).catch(next);
  });
  router.get('/openapi.json', (req, res, next) => {
    loadSpecs().then((s) => sendFresh(req, res, s.openapiJson, 'application/json; charset=utf-8')).catch(next);
  });
  router.get('/openrpc.json', (req, res, next) => {
    loadSpecs().then((s) => sendFresh(req, res, s.openrpcJson, 'application/json; charset=utf-8')).catch(next);
  });
  return router;
}

function sendDocsFile(req: Request, res: Response, site: Map<string, DocsFile>, name: string): void {
  const file = site.get(name);
  if (!file) throw new Error(`docs site lacks ${name}`);
  // Replaces any app-wide policy (e.g. helmet's): exactly this page's inline scripts may run.
  if (file.csp) res.set('Content-Security-Policy', file.csp);
  sendFresh(req, res, file.body, file.contentType);
}

/** Sends with a content ETag of its own (the app may turn Express's off) and answers 304 when fresh. */
function sendFresh(req: Request, res: Response, body: string | Buffer, contentType: string): void {
  res.set({
    'Content-Type': contentType,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-cache',
    ETag: `"${etagOf(body)}"`,
  });
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.send(body);
}

// Only the site's and the specs' bodies are ever keys, loaded once: a handful of entries.
const etags = new Map<string | Buffer, string>();
function etagOf(body: string | Buffer): string {
  let tag = etags.get(body);
  if (!tag) etags.set(body, (tag = createHash('sha256').update(body).digest('base64url').slice(0, 27)));
  return tag;
}
