import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { CONTRACT_NAMES, loadContract } from '../../src/chain/contracts.ts';

// Compiling the contracts (about 10 s of CPU) is `npm run check:generated`'s job, which .ci/run
// runs: scripts/generate/30-contracts.ts checks that the compiled contracts are CONTRACT_NAMES
// with 0x-hex creation code, and the diff after it proves generated/contracts is that
// compilation byte for byte. Here, without compiling: what is committed is what the code loads.
test('generated/contracts lists the contracts src/chain/contracts.ts types, each with 0x-hex code', () => {
  const index = JSON.parse(readFileSync(new URL('../../generated/contracts/index.json', import.meta.url), 'utf8')) as { contracts: string[] };
  assert.deepEqual(index.contracts, [...CONTRACT_NAMES]);
  for (const name of CONTRACT_NAMES) {
    const artifact = loadContract(name);
    assert.equal(artifact.contractName, name);
    assert.match(artifact.bytecode, /^0x[0-9a-f]+$/);
    assert.match(artifact.deployedBytecode, /^0x[0-9a-f]+$/);
  }
});
