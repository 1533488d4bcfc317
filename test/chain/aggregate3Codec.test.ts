// The hand-rolled Multicall3 aggregate3 coder gives the bytes a general ABI coder (ethers) gives,
// and refuses what that coder cannot decode instead of reading past the data.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Interface } from 'ethers';
import { decodeAggregate3, encodeAggregate3 } from '../../src/chain/aggregate3Codec.ts';

const abi = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
]);

/** A small deterministic generator, so a failure names its case. */
function random(seed: number) {
  let x = seed >>> 0;
  return () => ((x = (x * 1664525 + 1013904223) >>> 0), x / 2 ** 32);
}
const hexBytes = (next: () => number, n: number) => '0x' + Array.from({ length: n }, () => Math.floor(next() * 256).toString(16).padStart(2, '0')).join('');

test('aggregate3 calldata equals what the ABI coder encodes for empty, short and word-crossing call data', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const next = random(seed);
    const calls = Array.from({ length: Math.floor(next() * 12) }, () => ({
      to: hexBytes(next, 20),
      data: hexBytes(next, [0, 1, 4, 31, 32, 33, 36, 68, 100][Math.floor(next() * 9)]!),
    }));
    const expected = abi.encodeFunctionData('aggregate3', [calls.map((c) => [c.to, true, c.data])]);
    assert.equal(encodeAggregate3(calls), expected, `seed ${seed}`);
  }
  assert.throws(() => encodeAggregate3([{ to: '0x12', data: '0x' }]));
  assert.throws(() => encodeAggregate3([{ to: '0x' + '11'.repeat(20), data: '0x123' }]));
});

test('aggregate3 results decode as the ABI coder decodes them', () => {
  for (let seed = 1; seed <= 60; seed++) {
    const next = random(seed * 7);
    const results = Array.from({ length: Math.floor(next() * 12) }, () => [next() < 0.8, hexBytes(next, [0, 1, 31, 32, 33, 64, 96, 200][Math.floor(next() * 8)]!)] as const);
    const raw = abi.encodeFunctionResult('aggregate3', [results.map(([ok, data]) => [ok, data])]);
    const [decoded] = abi.decodeFunctionResult('aggregate3', raw) as unknown as [[boolean, string][]];
    const mine = decodeAggregate3(raw);
    assert.deepEqual(mine, decoded.map(([success, returnData]) => ({ success, returnData })), `seed ${seed}`);
    // Upper-case hex from a node decodes to the same lower-case data.
    assert.deepEqual(decodeAggregate3('0x' + raw.slice(2).toUpperCase()), mine);
  }
});

test('malformed aggregate3 results are refused (null), never read past the data', () => {
  const raw = abi.encodeFunctionResult('aggregate3', [[[true, '0x1234'], [false, '0x']]]);
  assert.equal(decodeAggregate3('0x'), null);
  assert.equal(decodeAggregate3('0x12'), null);
  assert.equal(decodeAggregate3('not hex'), null);
  assert.equal(decodeAggregate3(raw.slice(0, raw.length - 64)), null, 'truncated');
  // An array length far beyond the data.
  assert.equal(decodeAggregate3(raw.slice(0, 66) + 'f'.repeat(64) + raw.slice(130)), null);
  // A bool that is neither 0 nor 1.
  const firstTuple = 2 + (32 + 32 + 64) * 2;
  assert.equal(decodeAggregate3(raw.slice(0, firstTuple) + '2'.padStart(64, '0') + raw.slice(firstTuple + 64)), null);
  assert.deepEqual(decodeAggregate3(raw), [{ success: true, returnData: '0x1234' }, { success: false, returnData: '0x' }]);
});
