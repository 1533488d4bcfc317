import type { AnswerFactory } from '../operations/Reply.ts';
import { knownToken } from './knownToken.ts';

/** GET /tokens/{contractAddress}: any case in, checksummed out; 404 when not indexed. */
export const getToken: AnswerFactory<'getToken'> = ({ catalog }) => async ({ contractAddress }) => ({
  type: 'application/json',
  body: knownToken(await catalog.token(contractAddress), contractAddress),
});
