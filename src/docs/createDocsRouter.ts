import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
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
