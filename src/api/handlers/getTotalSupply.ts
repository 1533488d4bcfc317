import { toTotalSupplyBody } from '../../readModel/supply/toSupplyBody.ts';
import type { AnswerFactory } from '../operations/Reply.ts';
import { supplyAnswer } from './supplyAnswer.ts';

/** GET /supply/total: total supply after burn. */
export const getTotalSupply: AnswerFactory<'getTotalSupply'> = supplyAnswer(toTotalSupplyBody, (s) => s.totalSupply);
