import { Router, type Response } from 'express';
import { defaultDocsDir, defaultSpecDir, docsFiles } from './docsPaths.ts';
import { loadDocsSite, type DocsFile } from './loadDocsSite.ts';
import { loadSpecDocuments, type SpecDocuments } from './loadSpecDocuments.ts';
import { resolveDocsDir } from './resolveDocsDir.ts';

export type DocsRouterOptions = {
  /** A prebuilt site (`npm run docs`); used when it was built from the current specs. Default docs-dist/. */
  docsDir?: string;
  /** Where openapi.yaml and openrpc.json are read. Default spec/. */
  specDir?: string;
  /** Where a site is built on first request when docsDir is missing or stale. Default $TMPDIR/token-api-docs. */
  cacheDir?: string;
};

/**
 * GET /docs/ (landing), /docs/rest.html, /docs/rpc.html and the spec copies under /docs/,
 * plus the raw documents at /openapi.yaml, /openapi.json and /openrpc.json.
 * Nothing happens at creation: the site is located (or built, a few seconds) on the first /docs
 * request and then held in memory, so start-up is not slowed. Mount before the OpenAPI validator.
 */
export function createDocsRouter(options: DocsRouterOptions = {}): Router {
  const docsDir = options.docsDir ?? defaultDocsDir;
  const specDir = options.specDir ?? defaultSpecDir;
  let site: Promise<Map<string, DocsFile>> | undefined;
  let specs: Promise<SpecDocuments> | undefined;
  // Single flight; a failure is not cached, so the next request retries.
  const loadSite = () =>
    (site ??= resolveDocsDir({ docsDir, specDir, cacheDir: options.cacheDir })
      .then(loadDocsSite)
      .catch((error: unknown) => {
        site = undefined;
        throw error;
      }));
  const loadSpecs = () =>
    (specs ??= loadSpecDocuments(specDir).catch((error: unknown) => {
      specs = undefined;
      throw error;
    }));

  const router = Router();
  router.get('/docs', (req, res, next) => {
    const [path = '', query] = req.originalUrl.split(/\?(.*)/s);
    // Relative links in the pages need the trailing slash.
    if (!path.endsWith('/')) return res.redirect(301, `${path}/${query ? `?${query}` : ''}`);
    loadSite().then((s) => sendDocsFile(res, s, 'index.html')).catch(next);
  });
  router.get('/docs/:file', (req, res, next) => {
    const file = req.params.file;
    if (!(docsFiles as readonly string[]).includes(file)) return next();
    loadSite().then((s) => sendDocsFile(res, s, file)).catch(next);
  });
  router.get('/openapi.yaml', (_req, res, next) => {
    loadSpecs().then((s) => res.type('application/yaml; charset=utf-8').send(s.openapiYaml)).catch(next);
  });
  router.get('/openapi.json', (_req, res, next) => {
    loadSpecs().then((s) => res.type('application/json; charset=utf-8').send(s.openapiJson)).catch(next);
  });
  router.get('/openrpc.json', (_req, res, next) => {
    loadSpecs().then((s) => res.type('application/json; charset=utf-8').send(s.openrpcJson)).catch(next);
  });
  return router;
}

function sendDocsFile(res: Response, site: Map<string, DocsFile>, name: string): void {
  const file = site.get(name);
  if (!file) throw new Error(`docs site lacks ${name}`);
  res.set('Content-Type', file.contentType);
  res.set('X-Content-Type-Options', 'nosniff');
  // Replaces any stricter app-wide policy (e.g. helmet's): Redoc needs its inline scripts.
  if (file.csp) res.set('Content-Security-Policy', file.csp);
  res.send(file.body);
}
