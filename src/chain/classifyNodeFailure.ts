// The one place that decides what a node's refusal means: rate limited, range too large, a
// reverted call, retryable or not. Nodes and providers word these differently, so the rules
// match codes first and message fragments second.
import {
  CallRevertedError, HttpStatusError, JsonRpcResponseError, LogRangeTooLargeError, RateLimitedError,
  type ChainError, type NodeErrorObject,
} from './errors.ts';

const RATE = /rate.?limit|too many requests|request rate|requests per second|exceeded .*\b(rate|capacity|compute units|throughput)\b|throttl/i;
const RANGE = /more than \d+ results|block range|range (is )?too (large|wide|big)|too many (logs|results|blocks)|response size|exceed(s|ed)? .*(limit|range|size)|query returned|logs? limit|max(imum)? .*range/i;
const TRANSIENT = /timeout|timed out|header not found|unknown block|try again|temporar|overloaded|busy|bad gateway|service unavailable|gateway/i;
const REVERT = /revert|invalid opcode|out of gas|VM Exception|execution (error|failed)|function selector|invalid jump|stack underflow|static ?call/i;
/** "…this block range should work: [0x1, 0x7d0]" (Alchemy and others name a range that works). */
const SUGGESTED = /\[\s*(0x[0-9a-f]+)\s*,\s*(0x[0-9a-f]+)\s*\]/i;

type Filter = { fromBlock?: string; toBlock?: string; to?: string };

/** A JSON-RPC error object the node answered `method` with, as the error it means. */
export function classifyNodeError(method: string, params: readonly unknown[], nodeError: NodeErrorObject, retryAfterMs: number | null = null): ChainError {
  const text = `${nodeError.message} ${typeof nodeError.data === 'string' ? nodeError.data : JSON.stringify(nodeError.data ?? '')}`;
  if (nodeError.code === 429 || RATE.test(nodeError.message)) return new RateLimitedError(method, null, retryAfterMs, { nodeError });
  if (method === 'eth_getLogs' && (nodeError.code === -32005 || RANGE.test(text))) {
    const filter = (params[0] ?? {}) as Filter;
    return new LogRangeTooLargeError(Number(filter.fromBlock), Number(filter.toBlock), suggestedToBlock(text), { nodeError });
  }
  // EIP-1474's "limit exceeded" outside eth_getLogs is a rate or quota refusal.
  if (nodeError.code === -32005) return new RateLimitedError(method, null, retryAfterMs, { nodeError });
  if ((method === 'eth_call' || method === 'eth_estimateGas') && (nodeError.code === 3 || nodeError.code === -32015 || REVERT.test(nodeError.message) || revertDataOf(nodeError.data) !== null)) {
    return new CallRevertedError(String(((params[0] ?? {}) as Filter).to ?? ''), revertDataOf(nodeError.data), { nodeError });
  }
  return new JsonRpcResponseError(method, nodeError, { retryable: TRANSIENT.test(nodeError.message) });
}

/** An answer whose HTTP status is not 2xx, as the error it means. */
export function classifyHttpStatus(method: string, params: readonly unknown[], status: number, body: string, retryAfterMs: number | null): ChainError {
  const details = body.slice(0, 200);
  if (status === 429) return new RateLimitedError(method, 429, retryAfterMs, { details });
  if (method === 'eth_getLogs' && status >= 400 && status < 500 && RANGE.test(body)) {
    const filter = (params[0] ?? {}) as Filter;
    return new LogRangeTooLargeError(Number(filter.fromBlock), Number(filter.toBlock), suggestedToBlock(body), { details });
  }
  return new HttpStatusError(method, status, { retryable: status >= 500 || status === 408 || status === 425, details });
}

function suggestedToBlock(text: string): number | null {
  const match = SUGGESTED.exec(text);
  return match ? Number(BigInt(match[2]!)) : null;
}

// Nodes put the revert data in `data` as a hex string (geth, Anvil, Hardhat) or as `data.data`.
function revertDataOf(data: unknown): string | null {
  if (typeof data === 'string' && /^0x[0-9a-f]*$/i.test(data)) return data.toLowerCase();
  if (data && typeof data === 'object' && typeof (data as { data?: unknown }).data === 'string') return revertDataOf((data as { data: string }).data);
  return null;
}
