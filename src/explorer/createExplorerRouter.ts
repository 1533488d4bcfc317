import { createHash } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import type { ExplorerBundle } from './bundleExplorer.ts';
import { EXPLORER_CSP } from './explorerContentSecurityPolicy.ts';
import { EXPLORER_PATH, EXPLORER_SCRIPT_PATH, EXPLORER_STYLE_PATH } from './explorerPaths.ts';
import { loadExplorerBundle } from './loadExplorerBundle.ts';
import { renderExplorerPage } from './renderExplorerPage.ts';

export type ExplorerRouterOptions = {
  /** The network token the supply endpoints serve (the network view's subject). */
  networkToken?: string;
  /** Answer GET / with a redirect to the explorer (the demo). */
  redirectRoot?: boolean;
  /** The per-IP limits the API applies (0: none): the page paces its requests to fit them. Default 2/s and 60/min. */
  rateLimit?: { perSecond: number; perMinute: number };
  /** Where the bundle comes from; by default the build's, else bundled in memory once. */
  load?: () => Promise<ExplorerBundle>;
};

export type ExplorerRouter = Router & {
  /** Loads (or bundles) the page's files now; the composition root calls it once the server is ready. */
  warm(): Promise<void>;
};

type Site = { html: Buffer; files: Map<string, { body: Buffer; type: string }>; version: string };

/**
 * GET /explorer: the explorer page (src/explorer/page/), served from memory under its own strict
 * CSP, and its two files under /explorer/assets/. The files are loaded once (single flight; a
 * failure is retried at the next request). An asset asked for with the current `?v=` is
 * immutable; everything else is revalidated by ETag. Mount before the OpenAPI validator.
 */
export function createExplorerRouter(options: ExplorerRouterOptions = {}): ExplorerRouter {
  let site: Promise<Site> | undefined;
  const loadSite = () =>
    (site ??= (options.load ?? loadExplorerBundle)().then(
      (bundle) => {
        const version = createHash('sha256').update(bundle['explorer.js']).update(bundle['explorer.css']).digest('base64url').slice(0, 16);
        return {
          version,
          html: Buffer.from(renderExplorerPage({ networkToken: options.networkToken, version, rateLimit: options.rateLimit })),
          files: new Map([
            [EXPLORER_SCRIPT_PATH, { body: bundle['explorer.js'], type: 'text/javascript; charset=utf-8' }],
            [EXPLORER_STYLE_PATH, { body: bundle['explorer.css'], type: 'text/css; charset=utf-8' }],
          ]),
        };
      },
      (error: unknown) => {
        site = undefined;
        throw error;
      },
    ));

  const router = Router() as ExplorerRouter;
  router.warm = () => loadSite().then(() => undefined, () => undefined);
  if (options.redirectRoot) router.get('/', (_req, res) => res.redirect(302, EXPLORER_PATH));
  router.get([EXPLORER_PATH, `${EXPLORER_PATH}/`], (req, res, next) => {
    loadSite()
      .then((s) => {
        // Replaces helmet's policy: only this server's script and style sheet, no inline code.
        res.set('Content-Security-Policy', EXPLORER_CSP);
        send(req, res, s.html, 'text/html; charset=utf-8', 'no-cache');
      })
      .catch(next);
  });
  router.get([EXPLORER_SCRIPT_PATH, EXPLORER_STYLE_PATH], (req, res, next) => {
    loadSite()
      .then((s) => {
        const file = s.files.get(req.path)!;
        // The page asks for ?v=<its content hash>: that URL never changes content.
        const immutable = req.query.v === s.version;
        send(req, res, file.body, file.type, immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      })
      .catch(next);
  });
  return router;
}

const etags = new WeakMap<Buffer, string>();
function send(req: Request, res: Response, body: Buffer, type: string, cacheControl: string): void {
  let etag = etags.get(body);
  if (!etag) etags.set(body, (etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`));
  res.set({ 'Content-Type': type, 'Cache-Control': cacheControl, ETag: etag, 'X-Content-Type-Options': 'nosniff' });
  if (req.fresh) return void res.status(304).end();
  res.send(body);
}
