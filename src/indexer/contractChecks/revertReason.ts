// The reason a node gives for a reverted eth_call: the Error(string) in its revert data, or the
// reason quoted in its message, or "reverted without a reason"; at most 120 UTF-16 units (never half
// a surrogate pair: cutText), control characters replaced by U+FFFD: a token's revert data is
// anyone's bytes, and PostgreSQL's jsonb refuses \u0000.
import { AbiCoder } from 'ethers';
import { cutText, type CallRevertedError } from '../../chain/index.ts';

const ERROR_STRING = '0x08c379a0';
const QUOTED = /reason string ['"]([^'"]*)['"]|reverted: (.+?)(?:$|\n|")/;

export function revertReason(error: CallRevertedError): string {
  if (error.revertData?.startsWith(ERROR_STRING)) {
    try {
      return clean(String(AbiCoder.defaultAbiCoder().decode(['string'], `0x${error.revertData.slice(10)}`)[0]));
    } catch {
      /* not an Error(string) after all */
    }
  }
  const quoted = QUOTED.exec(error.nodeError?.message ?? '');
  return clean(quoted?.[1] ?? quoted?.[2] ?? 'reverted without a reason');
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/g;

function clean(reason: string): string {
  return cutText(reason, 120).replace(CONTROL, '\ufffd');
}
