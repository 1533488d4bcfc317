import { toCirculatingSupplyBody } from '../../readModel/supply/toSupplyBody.ts';
import type { AnswerFactory } from '../operations/Reply.ts';
import { supplyAnswer } from './supplyAnswer.ts';

/** GET /supply/circulating: total supply after burn minus the excluded wallets. */
export const getCirculatingSupply: AnswerFactory<'getCirculatingSupply'> = supplyAnswer(toCirculatingSupplyBody, (s) => s.circulatingSupply);
