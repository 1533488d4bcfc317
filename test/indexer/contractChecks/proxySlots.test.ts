// The proxy slots are the standards' published constants; a storage word yields its low 20 bytes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressInWord, PROXY_SLOTS } from '../../../src/indexer/contractChecks/proxySlots.ts';

describe('proxy slots', () => {
  it('match EIP-1967 and the ZeppelinOS constants', () => {
    assert.deepEqual(PROXY_SLOTS, {
      eip1967Implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
      eip1967Beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
      eip1967Admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
      zosImplementation: '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3',
      zosAdmin: '0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b',
    });
  });
  const cases: [string, string | null][] = [
    ['0x' + '0'.repeat(64), null],
    ['0x', null],
    ['0x' + '0'.repeat(24) + 'a0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48'],
    ['0x' + 'f'.repeat(24) + '00000000000000000000000000000000000000aa', '0x00000000000000000000000000000000000000aa'],
  ];
  for (const [word, expected] of cases) it(`addressInWord(${word.slice(0, 12)}…)`, () => assert.equal(addressInWord(word), expected));
});
