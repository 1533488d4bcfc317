// Selectors are read opcode by opcode: PUSH4 immediates count, bytes inside other PUSH data do not;
// on compiled contracts, the owner powers show exactly where the source has them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { id } from 'ethers';
import { loadContract, type ContractName } from '../../../src/chain/contracts.ts';
import { functionSelectors } from '../../../src/indexer/contractChecks/functionSelectors.ts';
import { powersOf } from '../../../src/indexer/contractChecks/powerSignatures.ts';

describe('functionSelectors', () => {
  const cases: [string, string, string[]][] = [
    ['a dispatcher PUSH4', '0x63a9059cbb14', ['0xa9059cbb']],
    ['two PUSH4s', '0x6340c10f19146384' + '56cb5914', ['0x40c10f19', '0x8456cb59']],
    ['a PUSH4 inside PUSH32 data is data', '0x7f' + '63a9059cbb'.padEnd(64, '0') + '00', []],
    ['a PUSH4 inside PUSH2 data is data', '0x61636300', []],
    ['a PUSH4 cut off by the end of the code', '0x63a905', []],
    ['empty code', '0x', []],
  ];
  for (const [name, code, expected] of cases) {
    it(name, () => assert.deepEqual([...functionSelectors(code)].sort(), expected.sort()));
  }
});

describe('powersOf compiled contracts', () => {
  const cases: [ContractName, string[]][] = [
    ['DemoToken', []],
    ['WETH9', []],
    ['DemoMintableToken', ['mint']],
    ['DemoFiatToken', ['mint', 'pause', 'blacklist']],
    ['DemoHoneypotToken', []],
    ['DemoTaxToken', []],
    ['DemoOwnedToken', []],
    // The proxy itself exposes none: its powers are its implementation's.
    ['DemoUpgradeableProxy', []],
  ];
  for (const [name, expected] of cases) {
    it(name, () => {
      const selectors = functionSelectors(loadContract(name).deployedBytecode);
      assert.deepEqual(powersOf(selectors).map((p) => p.power), expected);
      assert.ok(name === 'DemoUpgradeableProxy' || selectors.has(id('totalSupply()').slice(0, 10)), 'an ERC-20 selector is found');
    });
  }
});
