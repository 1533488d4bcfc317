import type { OperationId } from '../../../generated/openapi/operations.ts';
import { getCirculatingSupply } from '../handlers/getCirculatingSupply.ts';
import { getToken } from '../handlers/getToken.ts';
import { getTokenCandles } from '../handlers/getTokenCandles.ts';
import { getTokenPriceAt } from '../handlers/getTokenPriceAt.ts';
import { getTokenPriceHistory } from '../handlers/getTokenPriceHistory.ts';
import { getTotalSupply } from '../handlers/getTotalSupply.ts';
import { listPriceHistories } from '../handlers/listPriceHistories.ts';
import { listTokenPools } from '../handlers/listTokenPools.ts';
import { listTokens } from '../handlers/listTokens.ts';
import type { AnswerFactory } from './Reply.ts';

export type OperationAnswer<Id extends OperationId> = {
  answer: AnswerFactory<Id>;
  /**
   * True when the fast lane answers its uncached requests itself (parameters read with the
   * spec's schemas, see compileOperationParams) instead of handing them to Express: only where
   * `npm run bench:lanes` measures it faster (docs/performance.md).
   */
  lane: boolean;
};

/**
 * Each operation of the spec (generated/openapi/operations.ts, by operationId) with its answer:
 * an operation the spec gains and this table lacks, or one it loses, fails the type check.
 * Express, the fast lane and the request handler build their routes from the two tables.
 */
export const operationAnswers: { [Id in OperationId]: OperationAnswer<Id> } = {
  listTokens: { answer: listTokens, lane: true },
  getToken: { answer: getToken, lane: true },
  listTokenPools: { answer: listTokenPools, lane: true },
  getTokenPriceHistory: { answer: getTokenPriceHistory, lane: true },
  listPriceHistories: { answer: listPriceHistories, lane: true },
  getTokenCandles: { answer: getTokenCandles, lane: true },
  getTokenPriceAt: { answer: getTokenPriceAt, lane: true },
  getTotalSupply: { answer: getTotalSupply, lane: true },
  getCirculatingSupply: { answer: getCirculatingSupply, lane: true },
};
