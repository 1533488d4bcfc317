// A revert's reason from the error objects nodes answer a reverted eth_call with, through the
// client's own classification (the path a real call takes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AbiCoder } from 'ethers';
import { CallRevertedError, classifyNodeError, type NodeErrorObject } from '../../../src/chain/index.ts';
import { revertReason } from '../../../src/indexer/contractChecks/revertReason.ts';

const errorString = (s: string) => `0x08c379a0${AbiCoder.defaultAbiCoder().encode(['string'], [s]).slice(2)}`;
const TOKEN = '0x00000000000000000000000000000000000000aa';

describe('revertReason', () => {
  const cases: [string, NodeErrorObject, string][] = [
    ['geth/Anvil: code 3 with Error(string) revert data', { code: 3, message: 'execution reverted: TRANSFER_FAILED', data: errorString('TRANSFER_FAILED') }, 'TRANSFER_FAILED'],
    ['revert data nested in data.data', { code: -32603, message: 'Internal error', data: { message: 'reverted', data: errorString('Pausable: paused') } }, 'Pausable: paused'],
    ["Hardhat's quoted reason without data", { code: -32603, message: "Error: VM Exception while processing transaction: reverted with reason string 'Pausable: paused'" }, 'Pausable: paused'],
    ['a custom error', { code: 3, message: 'execution reverted', data: '0x1234abcd' }, 'reverted without a reason'],
    // What PostgreSQL's jsonb would refuse (the check would never be stored): NUL, an emoji cut at 120 units.
    ['control characters', { code: 3, message: 'execution reverted', data: errorString('\u0000no\nsale\u007f') }, '\ufffdno\ufffdsale\ufffd'],
    ['a surrogate pair the length bound would cut: left out whole', { code: 3, message: 'execution reverted', data: errorString(`${'x'.repeat(119)}😀`) }, 'x'.repeat(119)],
    ['a surrogate pair kept whole', { code: 3, message: 'execution reverted', data: errorString('no 😀 sale') }, 'no 😀 sale'],
  ];
  for (const [name, nodeError, expected] of cases) {
    it(name, () => {
      const error = classifyNodeError('eth_call', [{ to: TOKEN, data: '0x' }], nodeError);
      assert.ok(error instanceof CallRevertedError, `${error.name}`);
      assert.equal(error.to, TOKEN);
      assert.equal(revertReason(error), expected);
    });
  }
});
