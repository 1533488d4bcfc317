import { NotFoundError } from '../../errors/index.ts';

/** What the read model answered for a token, or NotFoundError when it is not indexed (undefined). */
export function knownToken<T>(answer: T | undefined, contractAddress: string): T {
  if (answer === undefined) throw new NotFoundError(`No token ${contractAddress} is indexed.`);
  return answer;
}
