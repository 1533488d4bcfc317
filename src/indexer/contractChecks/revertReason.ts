// The reason a node gives for a reverted eth_call: the Error(string) in its revert data, or the
// reason quoted in its message, or "reverted without a reason".
import { AbiCoder } from 'ethers';

const ERROR_STRING = '0x08c379a0';
const QUOTED = /reason string ['"]([^'"]*)['"]|reverted: (.+?)(?:$|\n|")/;

export function revertReason(error: unknown): string {
  let text = '';
  const seen = new Set<unknown>();
  const visit = (e: unknown, depth: number): string | null => {
    if (e === null || typeof e !== 'object' || depth > 8 || seen.has(e)) return null;
    seen.add(e);
    const o = e as Record<string, unknown>;
    if (typeof o.data === 'string' && o.data.startsWith(ERROR_STRING)) {
      try {
        return String(AbiCoder.defaultAbiCoder().decode(['string'], `0x${o.data.slice(10)}`)[0]);
      } catch {
        /* not an Error(string) after all */
      }
    }
    if (typeof o.message === 'string') text += `\n${o.message}`;
    for (const key of ['error', 'info', 'cause', 'data']) {
      const found = visit(o[key], depth + 1);
      if (found !== null) return found;
    }
    return null;
  };
  const decoded = visit(error, 0);
  if (decoded !== null) return decoded.slice(0, 120);
  const quoted = QUOTED.exec(text);
  return (quoted?.[1] ?? quoted?.[2] ?? 'reverted without a reason').slice(0, 120);
}
