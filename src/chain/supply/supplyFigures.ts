// The supply rule, for the /supply endpoints and the indexer's circulating supply alike:
// total supply = source supply − Σ burned balances; circulating = total − Σ excluded balances.
// All balances are read at one block with the source supply.
import { SupplyReadError } from './SupplyReadError.ts';

export type SupplyFigures = { burnedSum: bigint; totalSupply: bigint; excludedSum: bigint; circulatingSupply: bigint };

const sum = (values: readonly bigint[]) => values.reduce((acc, v) => acc + v, 0n);

/** Throws SupplyReadError instead of giving a negative figure (balances above the supply cannot be true). */
export function supplyFigures(sourceSupply: bigint, burned: readonly bigint[], excluded: readonly bigint[], what: string): SupplyFigures {
  const burnedSum = sum(burned);
  const excludedSum = sum(excluded);
  const totalSupply = sourceSupply - burnedSum;
  const circulatingSupply = totalSupply - excludedSum;
  if (totalSupply < 0n || circulatingSupply < 0n)
    throw new SupplyReadError(`inconsistent figures ${what}: supply ${sourceSupply}, burned ${burnedSum}, excluded ${excludedSum}`);
  return { burnedSum, totalSupply, excludedSum, circulatingSupply };
}
