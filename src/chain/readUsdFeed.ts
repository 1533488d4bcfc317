// Reads of a Chainlink-style price feed (AggregatorV3Interface behind an EACAggregatorProxy):
// decimals(), latestRoundData() and the proxy's current aggregator(), the contract that emits
// AnswerUpdated. A feed that is its own aggregator (no proxy) answers aggregator() with itself or
// not at all; both work.
import { AbiCoder } from 'ethers';
import type { ChainClient } from './createChainClient.ts';
import { callMany, type CallResult } from './multicall.ts';
import type { BlockTag } from './types.ts';

const SELECTORS = {
  decimals: '0x313ce567',
  latestRoundData: '0xfeaf968c',
  aggregator: '0x245a7bfc',
  phaseId: '0x58303b10',
} as const;

const coder = AbiCoder.defaultAbiCoder();

export type FeedRound = { answer: bigint; updatedAt: number };
/** Which aggregator the proxy points at: its address and the proxy's phase (counts the changes; null when it has none). */
export type FeedPhase = { aggregator: string; phase: number | null };
export type FeedReading = FeedPhase & { decimals: number | null; round: FeedRound | null };

/** One multicall at `blockTag`: decimals, the latest round (null when it reverts or is not positive), the aggregator and the phase. */
export async function readUsdFeed(chain: ChainClient, feed: string, blockTag: BlockTag, multicall3: string | null): Promise<FeedReading> {
  const [decimals, round, aggregator, phase] = await callMany(
    chain,
    [SELECTORS.decimals, SELECTORS.latestRoundData, SELECTORS.aggregator, SELECTORS.phaseId].map((data) => ({ to: feed, data })),
    blockTag,
    multicall3,
  );
  const dec = decimals?.ok && decimals.data.length >= 66 ? Number(BigInt(decimals.data.slice(0, 66))) : null;
  return { decimals: dec !== null && dec <= 36 ? dec : null, round: roundOf(round), ...phaseOf(aggregator, phase, feed) };
}

/** The proxy's aggregator and phase at `blockTag` (the feed itself and no phase when it answers none: no proxy, or not deployed yet). */
export async function readFeedPhase(chain: ChainClient, feed: string, blockTag: BlockTag, multicall3: string | null): Promise<FeedPhase> {
  const [aggregator, phase] = await callMany(chain, [SELECTORS.aggregator, SELECTORS.phaseId].map((data) => ({ to: feed, data })), blockTag, multicall3);
  return phaseOf(aggregator, phase, feed);
}

/**
 * An aggregator's own latest round at `blockTag` (null when it has none, or refuses), by a direct
 * eth_call: Chainlink's aggregators answer only their proxy or a call whose sender is its origin,
 * so a read through Multicall3 would be refused.
 */
export async function readAggregatorRound(chain: ChainClient, aggregator: string, blockTag: BlockTag): Promise<FeedRound | null> {
  const [round] = await callMany(chain, [{ to: aggregator, data: SELECTORS.latestRoundData }], blockTag, null);
  return roundOf(round);
}

function roundOf(round: CallResult | undefined): FeedRound | null {
  if (!round?.ok || round.data.length < 2 + 64 * 5) return null;
  const [, answer, , updatedAt] = coder.decode(['uint80', 'int256', 'uint256', 'uint256', 'uint80'], round.data) as unknown as bigint[];
  return answer! > 0n ? { answer: answer!, updatedAt: Number(updatedAt!) } : null;
}

function phaseOf(aggregator: CallResult | undefined, phase: CallResult | undefined, feed: string): FeedPhase {
  return {
    aggregator: aggregator?.ok && aggregator.data.length >= 66 ? ('0x' + aggregator.data.slice(26, 66)).toLowerCase() : feed.toLowerCase(),
    phase: phase?.ok && phase.data.length >= 66 ? Number(BigInt(phase.data.slice(0, 66)) & 0xffffn) : null,
  };
}
