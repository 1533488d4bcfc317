// Sorts a node failure into transient (retry), range-too-large (split getLogs), revert or other.
// Nodes word these differently, so the match is on codes and message fragments of the whole cause chain.

export type RpcErrorKind = 'transient' | 'range' | 'revert' | 'other';

const RANGE = /more than \d+ results|block range|range (is )?too (large|wide|big)|too many (logs|results|blocks)|response size|exceed(s|ed)? .*(limit|range|size)|query returned|logs? limit|max(imum)? .*range/i;
const TRANSIENT = /timeout|timed out|ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|socket hang up|network error|fetch failed|rate limit|too many requests|limit exceeded|bad gateway|service unavailable|gateway|header not found|try again|temporarily|overloaded|busy/i;
const REVERT = /revert|invalid opcode|out of gas|VM Exception|execution (error|failed)|function selector|invalid jump|stack underflow|static ?call/i;

/** Every message, code and HTTP status along the cause chain, as one searchable string. */
export function describeError(error: unknown, depth = 0): { text: string; codes: (string | number)[] } {
  const codes: (string | number)[] = [];
  let text = '';
  const visit = (e: unknown, d: number) => {
    if (e === null || e === undefined || d > 6) return;
    if (typeof e !== 'object') {
      text += ` ${String(e)}`;
      return;
    }
    const o = e as Record<string, unknown>;
    if (typeof o.message === 'string') text += ` ${o.message}`;
    if (typeof o.shortMessage === 'string') text += ` ${o.shortMessage}`;
    if (typeof o.code === 'string' || typeof o.code === 'number') codes.push(o.code);
    const info = o.info as Record<string, unknown> | undefined;
    if (info && typeof info.responseStatus === 'string') text += ` ${info.responseStatus}`;
    if (info && typeof info.responseStatus === 'number') codes.push(info.responseStatus);
    visit(o.error, d + 1);
    visit(info?.error, d + 1);
    visit(o.cause, d + 1);
  };
  visit(error, depth);
  return { text, codes };
}

export function classifyRpcError(error: unknown, method: string): RpcErrorKind {
  const { text, codes } = describeError(error);
  const status = codes.find((c): c is number => typeof c === 'number' && c >= 400 && c < 600);
  if (method === 'eth_getLogs' && (codes.includes(-32005) || codes.includes(-32602) || RANGE.test(text))) {
    // -32602 with a range message is "invalid params: range too large" on some nodes
    if (codes.includes(-32005) || RANGE.test(text)) return 'range';
  }
  if (
    codes.includes('TIMEOUT') ||
    codes.includes(-32005) ||
    codes.includes(429) ||
    codes.includes('ECONNREFUSED') ||
    codes.includes('ECONNRESET') ||
    (status !== undefined && (status === 429 || status >= 500)) ||
    TRANSIENT.test(text)
  ) {
    return 'transient';
  }
  if (method === 'eth_call' && isRevert(error)) return 'revert';
  return 'other';
}

// ethers wraps every eth_call failure as CALL_EXCEPTION ("missing revert data"), so judge by the
// node's own error when there is one: "missing trie node" must not pass for a revert.
function isRevert(error: unknown): boolean {
  const o = (error ?? {}) as { code?: unknown; error?: unknown; info?: { error?: unknown } };
  const nodeError = o.info?.error ?? o.error;
  if (nodeError) {
    const { text, codes } = describeError(nodeError);
    return codes.includes(3) || codes.includes(-32015) || REVERT.test(text);
  }
  return o.code === 'CALL_EXCEPTION';
}
