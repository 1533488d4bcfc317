// What the contract checks found about one token at one block (stored as JSON, scored by contractReasons).
import type { OwnerPower } from './powerSignatures.ts';

export type ProxyStandard = 'eip1967' | 'eip1967-beacon' | 'zeppelinos';

export type ContractFindings = {
  /** The token's address has code. */
  hasCode: boolean;
  /** Set when the token is a proxy: where its code comes from and who may replace it. */
  proxy: { standard: ProxyStandard; implementation: string; admin: string | null } | null;
  /** owner() (or getOwner()) when it answers with an address that is not zero or 0x…dEaD; null otherwise. */
  owner: string | null;
  /** True when owner() answered with the zero or dead address. */
  ownerRenounced: boolean;
  /** Owner powers found in the code that runs (the implementation's, for a proxy). */
  powers: { power: OwnerPower; signature: string }[];
  /** A simulated sale: a transfer from a recent buyer into a pool of the token. */
  sell:
    | { result: 'ok' | 'reverts'; holder: string; pool: string; amount: string; error?: string }
    | { result: 'untested'; why: string };
  /** Taxes seen in the receipts of recent swaps, in basis points of the amount the pool paid or the seller sent. */
  taxes: { side: 'buy' | 'sell'; bps: number; tx: string }[];
};
