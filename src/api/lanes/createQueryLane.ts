import type { OperationId } from '../../../generated/openapi/operations.ts';
import { operationIds, operations } from '../../spec/operationTable.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import { compileOperationParams } from '../operations/compileOperationParams.ts';
import type { OperationMatch } from '../operations/matchOperation.ts';
import { operationAnswers } from '../operations/operationAnswers.ts';
import type { SentReply } from '../operations/Reply.ts';

/** A request the lane will answer: its route (the metrics label) and the work that builds the reply. */
export type LanePlan = { route: string; run: () => Promise<SentReply> };

export type QueryLane = {
  /** A plan for a GET of an operation the lane can answer exactly like the full pipeline; undefined otherwise. */
  plan(match: OperationMatch): LanePlan | undefined;
};

/**
 * The operations the table marks for the lane (operationAnswers), without Express: parameters
 * read with the spec's own schemas (compileOperationParams), answered by the same answer
 * functions Express calls. Anything the lane is not certain about goes to Express. It exists
 * because Express and express-openapi-validator cost most of an uncached answer
 * (docs/performance.md: sixth round, and the lane's measure per operation).
 */
export function createQueryLane(deps: ApiDeps): QueryLane {
  const planners: { [Id in OperationId]?: (match: OperationMatch) => LanePlan | undefined } = {};
  for (const id of operationIds) if (operationAnswers[id].lane) planners[id] = planner(id);

  function planner<Id extends OperationId>(id: Id): (match: OperationMatch) => LanePlan | undefined {
    const params = compileOperationParams(id);
    const answer = operationAnswers[id].answer(deps);
    const { route } = operations[id];
    return (match) => {
      const values = params.read(match.query, match.pathParams);
      return values && { route, run: () => answer(values) };
    };
  }

  return { plan: (match) => planners[match.id]?.(match) };
}
