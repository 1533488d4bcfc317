import type { RequestListener } from 'node:http';
import { createRequire } from 'node:module';
import pino from 'pino';
import { createHttpHandler, type HttpHandler, type HttpHandlerOptions } from '../../src/api/createHttpHandler.ts';
import { createResponseValidator } from '../../src/api/validation/createResponseValidator.ts';
import { withResponseValidation } from '../../src/api/validation/withResponseValidation.ts';
import type { Database } from '../../src/db/index.ts';

export const silentLogger = pino({ level: 'silent' });

/**
 * express-openapi-validator compiles the OpenAPI meta-schema (about 0.1 s of CPU) for every
 * middleware it makes, and uses it only to check the spec itself, which createApp turns off;
 * test files make dozens of apps. Here the same options get the same compiled checker, once per
 * process. (Should the library move that module, nothing is cached: the tests only get slower.)
 */
{
  type Options = { version: string; validateApiSpec: boolean };
  type SchemaValidatorModule = { OpenAPISchemaValidator: new (options: Options) => object };
  let module: SchemaValidatorModule | undefined;
  try {
    module = createRequire(import.meta.url)('express-openapi-validator/dist/framework/openapi.schema.validator.js') as SchemaValidatorModule;
  } catch {
    module = undefined;
  }
  if (module && typeof module.OpenAPISchemaValidator === 'function') {
    const Compile = module.OpenAPISchemaValidator;
    const compiled = new Map<string, object>();
    module.OpenAPISchemaValidator = function OpenAPISchemaValidator(options: Options) {
      const key = JSON.stringify(options);
      let validator = compiled.get(key);
      if (!validator) compiled.set(key, (validator = new Compile(options)));
      return validator;
    } as unknown as typeof Compile;
  }
}

/** The spec's response checks, compiled once per test process. */
export const responseValidator = createResponseValidator();

/** The request listener production runs, checked against the spec from outside; `parts` are its pieces. */
export type TestApp = RequestListener & { parts: HttpHandler };

/**
 * The real request pipeline (lanes, response cache, Express) as every API test uses it, with
 * every response checked against spec/openapi.yaml by a wrapper outside it: a response that
 * does not match the spec becomes a 500 naming the violation. Data written to `db` shows at
 * the next request (the stores check the data version on every request unless told otherwise).
 */
export function testApp(db: Database, extra: Partial<HttpHandlerOptions> = {}): TestApp {
  const parts = createHttpHandler({ db, logger: silentLogger, ...extra });
  return Object.assign(withResponseValidation(parts.handler, responseValidator), { parts });
}

/** Records "METHOD url" of every request that reaches the Express app (behind the lanes). */
export function recordExpressRequests(app: unknown): string[] {
  const reached: string[] = [];
  const express = app as { handle: (req: { method: string; url: string }, ...rest: unknown[]) => unknown };
  const original = express.handle.bind(express);
  express.handle = (req, ...rest) => {
    reached.push(`${req.method} ${req.url}`);
    return original(req, ...rest);
  };
  return reached;
}
