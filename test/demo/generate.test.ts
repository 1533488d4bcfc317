import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { compileContracts, stableJson } from '../../scripts/generate/30-contracts.ts';
import { CONTRACT_NAMES, loadContract, type ContractName } from '../../src/chain/contracts.ts';

// One compilation compared byte for byte with generated/contracts, which an earlier process
// compiled: a nondeterministic compiler fails it as surely as a second compilation here would.
test('contract compilation is deterministic and matches generated/contracts', () => {
  const first = compileContracts();
  assert.deepEqual(first.map((c) => c.contractName), [...CONTRACT_NAMES]);
  for (const c of first) {
    const onDisk = readFileSync(new URL(`../../generated/contracts/${c.contractName}.json`, import.meta.url), 'utf8');
    assert.equal(onDisk, stableJson(c), `${c.contractName}.json is stale: run npm run generate`);
    assert.match(loadContract(c.contractName as ContractName).bytecode, /^0x[0-9a-f]+$/);
  }
});
