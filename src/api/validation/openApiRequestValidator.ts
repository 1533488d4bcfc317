import type { Application, Request, RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { operationIds, operations } from '../../spec/operationTable.ts';
import { openapiSpecPath } from '../../spec/specPaths.ts';

/** The names of every path parameter the spec declares (`contractAddress`, …). */
const pathParameterNames = [...new Set(operationIds.flatMap((id) => operations[id].parameters.filter((p) => p.in === 'path').map((p) => p.name)))];

let shared: RequestHandler[] | undefined;
let made = 0;

/** How many times this process made the validator's middleware (once, whatever the number of apps). */
export const openApiRequestValidatorsMade = (): number => made;

/**
 * express-openapi-validator's request validation against spec/openapi.yaml, the validator of
 * record. Its middleware is made once per process and shared by every app of the process: it
 * loads and preprocesses the spec and compiles each operation's checks on first use (about
 * 70 ms of CPU per app), and every app validates the same file with the same options, so each
 * app would redo identical work (test processes build dozens of apps).
 *
 * The library installs its path-parameter hooks (`app.param`) only on the first app it sees;
 * each app gets the same hooks here, with the library's rule: a path parameter takes the value
 * the validator decoded for the route, when it has one.
 */
export function useOpenApiRequestValidator(app: Application): void {
  shared ??= (made++, OpenApiValidator.middleware({
    apiSpec: openapiSpecPath,
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses: false, // the whole handler's responses are checked outside (withResponseValidation)
    validateApiSpec: false,
  }));
  for (const name of pathParameterNames) {
    app.param(name, (req: Request, _res, next) => {
      const decoded = (req as Request & { openapi?: { pathParams?: Record<string, string> } }).openapi?.pathParams?.[name];
      if (decoded) req.params[name] = decoded;
      next();
    });
  }
  app.use(shared);
}
