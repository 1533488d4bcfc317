// The opcode scan that decides whether a token's proxy slots are read: a DELEGATECALL or CALLCODE
// opcode counts wherever it is, the same byte inside PUSH data never does (the scan may say "can"
// of code that cannot, never the reverse); compiled proxies and the simulator's proxies can.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadContract, type ContractName } from '../../../src/chain/contracts.ts';
import { canDelegate } from '../../../src/indexer/contractChecks/canDelegate.ts';
import { SimChain } from '../../../sim/chain.ts';
import { codeOf } from '../../../sim/calls.ts';

describe('canDelegate', () => {
  const cases: [string, string, boolean][] = [
    ['a DELEGATECALL', '0x5af4', true],
    ['a CALLCODE', '0x5af2', true],
    ['0xf4 as PUSH1 data, then a real DELEGATECALL', '0x60f4f4', true],
    ['0xf4 after a PUSH32 whose data ends before it', '0x7f' + '00'.repeat(32) + 'f4', true],
    ['0xf4 as PUSH1 data', '0x60f400', false],
    ['0xf2 and 0xf4 as PUSH2 data', '0x61f2f400', false],
    ['0xf4 in every byte of PUSH32 data', '0x7f' + 'f4'.repeat(32) + '00', false],
    ['0xf4 inside PUSH data cut off by the end of the code', '0x7ff4f4', false],
    ['PUSH0 has no data: the next byte is an opcode', '0x5ff4', true],
    ['a plain call (CALL, STATICCALL) is no delegation', '0x5af15afa00', false],
    ['upper-case hex', '0x5AF4', true],
    ['an EIP-7702 delegated account runs code the scan cannot see', '0xef0100' + '11'.repeat(20), true],
    ['no code', '0x', false],
  ];
  for (const [name, code, expected] of cases) it(name, () => assert.equal(canDelegate(code), expected));

  it('finds the DELEGATECALL of the compiled proxy', () => {
    assert.equal(canDelegate(loadContract('DemoUpgradeableProxy').deployedBytecode), true);
  });

  it('a compiled token without delegation has no DELEGATECALL outside PUSH data', () => {
    // These contracts' sources have no delegatecall; only their metadata (read as opcodes) could
    // show 0xf2/0xf4, so each byte found is checked to be outside the code the compiler wrote.
    const names: ContractName[] = ['DemoToken', 'DemoMintableToken', 'DemoTaxToken', 'DemoHoneypotToken', 'DemoFiatToken', 'WETH9'];
    for (const name of names) {
      const code = loadContract(name).deployedBytecode;
      // Solidity appends CBOR metadata whose length is the last two bytes.
      const metadataBytes = parseInt(code.slice(-4), 16) + 2;
      const body = code.slice(0, code.length - metadataBytes * 2);
      assert.equal(canDelegate(body), false, `${name}'s code (metadata left out) cannot delegate`);
    }
  });

  it("the simulator's proxies can delegate, its other tokens cannot", () => {
    const chain = new SimChain({ profile: 'demo-size', seed: 1 });
    const proxies = chain.world.tokens.filter((t) => t.implementation);
    assert.ok(proxies.length >= 2, 'the simulated world has proxies');
    for (const t of chain.world.tokens) assert.equal(canDelegate(codeOf(chain, t.address)), t.implementation !== null, t.symbol);
  });
});
