import type { Express, RequestHandler, Response } from 'express';
import type { Operation, OperationId } from '../../../generated/openapi/operations.ts';
import { operationIds, operations } from '../../spec/operationTable.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { compileOperationParams } from './compileOperationParams.ts';
import { operationAnswers } from './operationAnswers.ts';
import { contentTypeOf, type SentReply } from './Reply.ts';

/**
 * Routes every operation of the spec on Express (behind express-openapi-validator), from the
 * operation table: its route, the response cache's capture when the operation is cacheable, and
 * its answer, given the parameters the validator checked and coerced (read back through the
 * spec's schemas, the lane's, so both paths hand the answer the same values).
 */
export function mountOperations(app: Express, deps: ApiDeps, capture: RequestHandler): void {
  for (const id of operationIds) mount(id);

  function mount<Id extends OperationId>(id: Id): void {
    const operation: Operation = operations[id];
    const params = compileOperationParams(id);
    const answer = operationAnswers[id].answer(deps);
    const handler: RequestHandler = async (req, res) => {
      const values = params.accept({ ...req.query, ...req.params });
      if (!values) throw new Error(`${id}: parameters express-openapi-validator passed do not match the spec's schemas`);
      sendReply(res, await answer(values));
    };
    app.get(operation.route, ...(operation.answer.cacheable ? [capture] : []), handler);
  }
}

/** Sends a 200 through Express (compression and the response cache's capture see it). */
function sendReply(res: Response, reply: SentReply): void {
  for (const [name, value] of reply.headers ?? []) res.setHeader(name, value);
  if (reply.etag) res.locals.etag = reply.etag; // stored with the body by the response cache, as the lane stores it
  if (reply.notCached) res.locals.notCached = true; // sent like a stored answer, not stored
  // Express adds the charset to strings' Content-Type only: set it for bytes alike.
  res.type(contentTypeOf(reply)).send(reply.body);
}
