// GET /demo/logos/{symbol}.svg: the demo token list's logos, generated, for the listed symbols only.
import { createHash } from 'node:crypto';
import { Router } from 'express';
import { problem, sendProblem } from '../api/problem.ts';
import { logoSvg } from './logos.ts';

export const DEMO_LOGO_PATH = '/demo/logos';

/** Mount before the OpenAPI validator (like the docs router); anything else under the path is a 404 problem. */
export function createDemoLogoRouter(options: { symbols: Iterable<string> }): Router {
  const logos = new Map<string, { svg: string; etag: string }>();
  for (const symbol of options.symbols) {
    const svg = logoSvg(symbol);
    logos.set(symbol, { svg, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"` });
  }
  const router = Router();
  router.get(`${DEMO_LOGO_PATH}/:file`, (req, res) => {
    const match = /^(.+)\.svg$/.exec(req.params.file);
    const logo = match ? logos.get(match[1]!) : undefined;
    if (!logo) return sendProblem(res, problem(404, 'not-found', `no demo logo ${req.params.file}`));
    res.setHeader('Cache-Control', 'public, max-age=86400');
    res.setHeader('ETag', logo.etag);
    if (req.headers['if-none-match'] === logo.etag) return void res.status(304).end();
    res.type('image/svg+xml').send(logo.svg);
  });
  return router;
}
