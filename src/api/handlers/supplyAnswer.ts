import type { OperationParams } from '../../../generated/openapi/operations.ts';
import { NotFoundError } from '../../errors/index.ts';
import { toJson, type Json } from '../../readModel/json.ts';
import { formatTokenUnits } from '../../readModel/supply/formatTokenUnits.ts';
import type { SupplyAnswer, SupplySnapshot } from '../../readModel/supply/SupplySnapshot.ts';
import type { ApiDeps } from '../ApiDeps.ts';
import type { ReplyHeaders } from '../operations/Reply.ts';

type SupplyParams = OperationParams['getTotalSupply'] & OperationParams['getCirculatingSupply'];
type SupplyReply<B> = { type: 'application/json'; body: Json<B>; headers: ReplyHeaders } | { type: 'text/plain'; body: string; headers: ReplyHeaders };

/**
 * A supply answer (GET /supply/total, /supply/circulating) for the network token only (404 for
 * any other, or when none is configured): `format=raw` the figure in whole tokens as text,
 * `format=json` the body `toBody` makes; never kept by the response cache (its Age moves).
 */
export function supplyAnswer<B>(toBody: (answer: SupplyAnswer) => B, figure: (snapshot: SupplySnapshot) => bigint) {
  return ({ supply }: Pick<ApiDeps, 'supply'>) => async (query: SupplyParams): Promise<SupplyReply<B>> => {
    if (!supply) throw new NotFoundError('No network token is configured on this server, so no supply is served.');
    if (query.contractAddress.toLowerCase() !== supply.tokenAddress.toLowerCase())
      throw new NotFoundError(`Supply is served only for the network token ${supply.tokenAddress}, not ${query.contractAddress}.`);
    const answer = await supply.get();
    const headers = supplyHeaders(answer, supply.cacheSeconds);
    if (query.format === 'json') return { type: 'application/json', body: toJson(toBody(answer)), headers };
    return { type: 'text/plain', body: formatTokenUnits(figure(answer.snapshot), answer.snapshot.decimals), headers };
  };
}

// Age lets shared caches count the seconds already spent in ours against max-age; stale
// figures must not be kept downstream once the node is back.
function supplyHeaders(answer: SupplyAnswer, cacheSeconds: number): ReplyHeaders {
  return [
    ['Cache-Control', answer.stale ? 'no-store' : `public, max-age=${cacheSeconds}`],
    ['Age', String(answer.ageSeconds)],
    ['X-Supply-Block-Number', String(answer.snapshot.blockNumber)],
    ...(answer.stale ? [['X-Supply-Stale', 'true'] as const] : []),
  ];
}
