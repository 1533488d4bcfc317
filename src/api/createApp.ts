import express, { type Router } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { ApiDeps } from './ApiDeps.ts';
import { errorHandler } from './errorHandler.ts';
import { getToken } from './handlers/getToken.ts';
import { listTokens } from './handlers/listTokens.ts';
import { getTokenPriceHistory, listPriceHistories } from './handlers/priceHistories.ts';
import { openapiSpecPath } from './specPaths.ts';
import { getCirculatingSupply, getTotalSupply } from './supply/supplyHandlers.ts';

export type AppOptions = ApiDeps & {
  /** Check every response against spec/openapi.yaml (tests); a mismatch becomes a 500. */
  validateResponses?: boolean;
  /** Routers outside the OpenAPI document (JSON-RPC, docs, health), mounted before validation. */
  routers?: Router[];
};

/** The HTTP application: spec-validated REST at the root, extra routers (e.g. POST /rpc) beside it. */
export function createApp(options: AppOptions): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'extended');
  for (const router of options.routers ?? []) app.use(router);
  app.use(
    OpenApiValidator.middleware({
      apiSpec: openapiSpecPath,
      validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
      validateResponses: options.validateResponses ?? false,
      validateApiSpec: false,
    }),
  );
  app.get('/tokens', listTokens(options));
  app.get('/tokens/:contractAddress', getToken(options));
  app.get('/prices', listPriceHistories(options));
  app.get('/prices/:contractAddress', getTokenPriceHistory(options));
  app.get('/supply/total', getTotalSupply(options));
  app.get('/supply/circulating', getCirculatingSupply(options));
  app.use(errorHandler(options.logger));
  return app;
}
