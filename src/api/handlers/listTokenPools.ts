import type { AnswerFactory } from '../operations/Reply.ts';
import { knownToken } from './knownToken.ts';

/** GET /tokens/{contractAddress}/pools: a page of the token's pools; 404 when the token is not indexed. */
export const listTokenPools: AnswerFactory<'listTokenPools'> = ({ catalog }) => async ({ contractAddress, page, limit }) => ({
  type: 'application/json',
  body: knownToken(await catalog.pools(contractAddress, page, limit), contractAddress),
});
