// Multicall3 `aggregate3((address target, bool allowFailure, bytes callData)[])` and its result
// `(bool success, bytes returnData)[]`, ABI-coded by hand on hex strings: the indexer reads tens of
// thousands of pool states per history range through it, and a general ABI coder spent more CPU on
// the coding than the node spent answering. Every call is sent with allowFailure = true.
export const AGGREGATE3_SELECTOR = '82ad56cb';

const WORD = 64; // hex characters per 32-byte word
const HEX = /^0x(?:[0-9a-fA-F]{2})*$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

const word = (n: number) => n.toString(16).padStart(WORD, '0');
const padRight = (hex: string) => hex + '0'.repeat((WORD - (hex.length % WORD)) % WORD);

/** The calldata of aggregate3(calls) with allowFailure on every call. Throws on a malformed address or data. */
export function encodeAggregate3(calls: readonly { to: string; data: string }[]): string {
  const tuples: string[] = [];
  for (const call of calls) {
    if (!ADDRESS.test(call.to)) throw new TypeError(`not an address: ${call.to}`);
    if (!HEX.test(call.data)) throw new TypeError(`not hex data: ${call.data.slice(0, 20)}`);
    const data = call.data.slice(2).toLowerCase();
    // target, allowFailure, offset of callData within the tuple (3 words), its length, its bytes.
    tuples.push('0'.repeat(24) + call.to.slice(2).toLowerCase() + word(1) + word(3 * 32) + word(data.length / 2) + padRight(data));
  }
  const offsets: string[] = [];
  let at = calls.length * 32;
  for (const tuple of tuples) {
    offsets.push(word(at));
    at += tuple.length / 2;
  }
  return '0x' + AGGREGATE3_SELECTOR + word(32) + word(calls.length) + offsets.join('') + tuples.join('');
}

export type Aggregate3Result = { success: boolean; returnData: string };

/**
 * The results of aggregate3 from its return data; null when the data is not a well-formed
 * `(bool,bytes)[]` (an offset or length out of bounds, an offset too large, a bool not 0 or 1).
 */
export function decodeAggregate3(raw: string): Aggregate3Result[] | null {
  if (!HEX.test(raw)) return null;
  const hex = raw.slice(2).toLowerCase();
  const bytes = hex.length / 2;
  /** The word at byte `at` as a number, or -1 when it is out of bounds or above 2^32. */
  const num = (at: number): number => {
    if (at < 0 || at + 32 > bytes) return -1;
    const start = at * 2;
    for (let i = start; i < start + WORD - 8; i++) if (hex.charCodeAt(i) !== 48) return -1;
    return parseInt(hex.slice(start + WORD - 8, start + WORD), 16);
  };
  const arrayAt = num(0);
  if (arrayAt < 0) return null;
  const length = num(arrayAt);
  if (length < 0 || arrayAt + 32 + length * 32 > bytes) return null;
  const base = arrayAt + 32;
  const out: Aggregate3Result[] = [];
  for (let i = 0; i < length; i++) {
    const rel = num(base + i * 32);
    if (rel < 0) return null;
    const tuple = base + rel;
    const success = num(tuple);
    const dataRel = num(tuple + 32);
    if ((success !== 0 && success !== 1) || dataRel < 0) return null;
    const dataAt = tuple + dataRel;
    const dataLength = num(dataAt);
    if (dataLength < 0 || dataAt + 32 + dataLength > bytes) return null;
    out.push({ success: success === 1, returnData: '0x' + hex.slice((dataAt + 32) * 2, (dataAt + 32 + dataLength) * 2) });
  }
  return out;
}
