// The sale half of the checks, with calls every node answers (no state override, no tracing):
// - taxes: the receipts of the token's latest buy and sell. A buyer must receive all the pool paid
//   out (the pool's fee is taken on the way in); a pool must receive all the seller sent. What is
//   missing went somewhere else: a fee on transfer.
// - a simulated sale: eth_call, as a recent buyer (an address the latest buy delivered to, or that
//   buy's sender), of transfer(pool, amount) on the token at the head block. A revert is a token
//   that can be bought and not sold.
// - `alongside`: calls of the same check that ride in the balances' Multicall3 aggregate3 (the
//   token's owner(), readProxyAndPowers.ts), or alone when no balance is read; their answers are
//   returned as `alongside`.
// RPC cost: up to 2 × eth_getTransactionReceipt, one eth_call (balances and `alongside` through
// Multicall3), one eth_call (the sale, from the holder: Multicall3 would be its sender).
import { Interface } from 'ethers';
import { callFrom, callMany, CallRevertedError, ChainError, readReceipt, type Call, type CallResult, type ChainClient, type Receipt } from '../../chain/index.ts';
import type { RecentSwap } from '../../db/index.ts';
import type { ContractFindings } from './ContractFindings.ts';
import { revertReason } from './revertReason.ts';

const erc20 = new Interface(['function balanceOf(address) view returns (uint256)', 'function transfer(address,uint256) returns (bool)']);
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** Below this share missing, a difference is rounding, not a tax. */
export const TAX_TOLERANCE_BPS = 50;

type Transfer = { from: string; to: string; value: bigint };
const topicAddress = (topic: string | undefined) => (topic ? `0x${topic.slice(26)}` : '');

function transfersOf(receipt: Receipt, token: string): Transfer[] {
  return receipt.logs
    .filter((l) => l.address === token && l.topics[0] === TRANSFER && l.topics.length === 3)
    .map((l) => ({ from: topicAddress(l.topics[1]), to: topicAddress(l.topics[2]), value: BigInt(l.data === '0x' ? 0 : l.data.slice(0, 66)) }));
}

const bps = (missing: bigint, whole: bigint) => (whole > 0n ? Number((missing * 10_000n) / whole) : 0);

/** A receipt; none when the node refuses the method outright (a transient failure fails the check). */
async function receiptOrNone(chain: ChainClient, txHash: string): Promise<Receipt | null> {
  try {
    return await readReceipt(chain, txHash);
  } catch (error) {
    if (error instanceof ChainError && !error.retryable) return null;
    throw error;
  }
}

export type SellInput = {
  chain: ChainClient; token: string; block: number; multicall: string | null | undefined; swaps: RecentSwap[]; pool: string | null;
  /** Calls made in the same aggregate3 as the holders' balances; their answers come back as `alongside`. */
  alongside?: readonly Call[];
};
export type SellFindings = Pick<ContractFindings, 'sell' | 'taxes'> & { alongside?: CallResult[] };

export async function checkSellability(input: SellInput): Promise<SellFindings> {
  const { chain, token, block, swaps } = input;
  const receipts = await Promise.all(swaps.map((s) => receiptOrNone(chain, s.txHash)));
  const taxes: ContractFindings['taxes'] = [];
  const candidates = new Set<string>();
  swaps.forEach((swap, i) => {
    const receipt = receipts[i];
    if (!receipt?.status) return;
    const transfers = transfersOf(receipt, token);
    if (swap.side === 'buy') {
      // The Swap event's recipient (topics[2] in every family the indexer reads).
      const recipient = topicAddress(receipt.logs.find((l) => l.address === swap.pool && l.logIndex === swap.logIndex)?.topics[2]);
      const received = transfers.filter((t) => t.from === swap.pool && t.to === recipient).reduce((n, t) => n + t.value, 0n);
      if (recipient && received > 0n) {
        candidates.add(recipient);
        const missing = bps(swap.amount - received, swap.amount);
        if (missing > TAX_TOLERANCE_BPS) taxes.push({ side: 'buy', bps: missing, tx: swap.txHash });
      }
      candidates.add(receipt.from);
    } else {
      const into = transfers.find((t) => t.to === swap.pool);
      if (!into) return;
      const sent = transfers.filter((t) => t.from === into.from).reduce((n, t) => n + t.value, 0n);
      const received = transfers.filter((t) => t.from === into.from && t.to === swap.pool).reduce((n, t) => n + t.value, 0n);
      const missing = bps(sent - received, sent);
      if (missing > TAX_TOLERANCE_BPS) taxes.push({ side: 'sell', bps: missing, tx: swap.txHash });
    }
  });
  const pool = input.pool ?? swaps.find((s) => s.side === 'buy')?.pool ?? swaps[0]?.pool ?? null;
  const holders = pool ? [...candidates].filter((c) => c !== pool) : [];
  const extra = input.alongside ?? [];
  const calls = [...extra, ...holders.map((h) => ({ to: token, data: erc20.encodeFunctionData('balanceOf', [h]) }))];
  const answers = calls.length > 0 ? await callMany(chain, calls, block, input.multicall) : [];
  const balances = answers.slice(extra.length);
  const found = (findings: Pick<ContractFindings, 'sell' | 'taxes'>): SellFindings => (input.alongside ? { ...findings, alongside: answers.slice(0, extra.length) } : findings);
  if (!pool) return found({ sell: { result: 'untested', why: 'no pool of the token has a swap on record' }, taxes });
  if (holders.length === 0) return found({ sell: { result: 'untested', why: 'no recent buyer on record' }, taxes });
  let holder: string | null = null;
  let balance = 0n;
  balances.forEach((b, i) => {
    const value = b.ok && b.data.length >= 66 ? BigInt(b.data.slice(0, 66)) : 0n;
    if (value > balance) [holder, balance] = [holders[i]!, value];
  });
  if (!holder) return found({ sell: { result: 'untested', why: 'no recent buyer still holds the token' }, taxes });
  // What the latest buy took out of the pool, or the holder's balance when smaller (or unknown).
  const bought = swaps.find((s) => s.side === 'buy')?.amount ?? 0n;
  const amount = bought > 0n && bought < balance ? bought : balance;
  const data = erc20.encodeFunctionData('transfer', [pool, amount]);
  try {
    const answer = await callFrom(chain, holder, token, data, block);
    // A token that returns false instead of reverting refuses the transfer all the same.
    const refused = answer.length >= 66 && BigInt(answer.slice(0, 66)) === 0n;
    return found({ sell: { result: refused ? 'reverts' : 'ok', holder, pool, amount: amount.toString(), ...(refused ? { error: 'transfer returned false' } : {}) }, taxes });
  } catch (error) {
    if (!(error instanceof CallRevertedError)) throw error;
    return found({ sell: { result: 'reverts', holder, pool, amount: amount.toString(), error: revertReason(error) }, taxes });
  }
}
