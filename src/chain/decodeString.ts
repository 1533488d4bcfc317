// ERC-20 name()/symbol() come as ABI strings, or as bytes32 on old tokens (MKR, SAI).
import { AbiCoder, Utf8ErrorFuncs, toUtf8String } from 'ethers';
import { cutText } from './cutText.ts';

const coder = AbiCoder.defaultAbiCoder();
const MAX_LENGTH = 200;

/** Decodes a string or bytes32 return value; null when it is neither. Control characters dropped, at most 200 UTF-16 units. */
export function decodeString(data: string): string | null {
  if (!data || data === '0x') return null;
  const bytes = (data.length - 2) / 2;
  if (bytes >= 64) {
    try {
      const [value] = coder.decode(['string'], data) as unknown as [string];
      return clean(value);
    } catch {
      // fall through to bytes32
    }
  }
  if (bytes === 32) {
    const hex = data.slice(2).replace(/(00)+$/, '');
    try {
      return clean(toUtf8String('0x' + hex, Utf8ErrorFuncs.replace));
    } catch {
      return null;
    }
  }
  return null;
}

function clean(value: string): string {
  // eslint-disable-next-line no-control-regex
  return cutText(value.replace(/[\u0000-\u001f\u007f\ufffd]/g, '').trim(), MAX_LENGTH);
}
