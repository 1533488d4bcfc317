// A revert's reason from the shapes nodes and ethers give it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AbiCoder } from 'ethers';
import { revertReason } from '../../../src/indexer/contractChecks/revertReason.ts';

const errorString = (s: string) => `0x08c379a0${AbiCoder.defaultAbiCoder().encode(['string'], [s]).slice(2)}`;

describe('revertReason', () => {
  const cases: [string, unknown, string][] = [
    ['Error(string) revert data deep in the cause chain', { message: 'call failed', cause: { info: { error: { code: 3, data: errorString('TRANSFER_FAILED') } } } }, 'TRANSFER_FAILED'],
    ["Hardhat's quoted reason", new Error("VM Exception while processing transaction: reverted with reason string 'Pausable: paused'"), 'Pausable: paused'],
    ['a custom error or no data', { message: 'execution reverted', data: '0x1234abcd' }, 'reverted without a reason'],
    ['not an object', 'boom', 'reverted without a reason'],
  ];
  for (const [name, error, expected] of cases) it(name, () => assert.equal(revertReason(error), expected));
});
