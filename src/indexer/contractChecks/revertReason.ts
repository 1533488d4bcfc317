// The reason a node gives for a reverted eth_call: the Error(string) in its revert data, or the
// reason quoted in its message, or "reverted without a reason".
import { AbiCoder } from 'ethers';
import type { CallRevertedError } from '../../chain/index.ts';

const ERROR_STRING = '0x08c379a0';
const QUOTED = /reason string ['"]([^'"]*)['"]|reverted: (.+?)(?:$|\n|")/;

export function revertReason(error: CallRevertedError): string {
  if (error.revertData?.startsWith(ERROR_STRING)) {
    try {
      return String(AbiCoder.defaultAbiCoder().decode(['string'], `0x${error.revertData.slice(10)}`)[0]).slice(0, 120);
    } catch {
      /* not an Error(string) after all */
    }
  }
  const quoted = QUOTED.exec(error.nodeError?.message ?? '');
  return (quoted?.[1] ?? quoted?.[2] ?? 'reverted without a reason').slice(0, 120);
}
