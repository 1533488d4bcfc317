import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeHardhatNetworkAccountsConfig } from 'hardhat/internal/core/providers/util.js';
import { deriveMnemonicKeys, startDemoChain, type DemoChain } from '../../src/demo/chain.ts';

async function rpc(chain: DemoChain, method: string, params: unknown[] = []): Promise<any> {
  const res = await fetch(chain.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(body.error.message);
  return body.result;
}

// Init code that emits LOG1(topic 7, data 42) from its constructor and deploys empty code.
const LOG_EMITTER_INITCODE = '0x602a600052600760206000a100';

test('demo chain serves JSON-RPC over HTTP and stops cleanly', async () => {
  const chain = await startDemoChain({ chainId: 59144 });
  try {
    assert.match(chain.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.equal(await rpc(chain, 'eth_chainId'), '0xe708');
    assert.equal(await chain.provider.request({ method: 'eth_chainId' }), '0xe708');
    assert.ok(chain.startupMs < 10_000, `startup took ${chain.startupMs} ms`);
    const accounts = (await rpc(chain, 'eth_accounts')) as string[];
    assert.equal(accounts.length, 20);
    assert.equal(BigInt(await rpc(chain, 'eth_getBalance', [accounts[0], 'latest'])), 10n ** 24n);
  } finally {
    await chain.stop();
  }
  await assert.rejects(fetch(chain.url));
});

test("every chain has Hardhat's 20 default accounts (its test mnemonic), each with the balance asked", async () => {
  const balances = [10n ** 24n, 5n * 10n ** 18n];
  // The second chain gets the keys the first derived (src/demo/chain.ts derives them once per process).
  for (const balance of balances) {
    const chain = await startDemoChain({ accountsBalanceWei: balance });
    try {
      const accounts = (await rpc(chain, 'eth_accounts')) as string[];
      assert.equal(accounts.length, 20);
      assert.equal(accounts[0], '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266');
      assert.equal(accounts[19], '0x8626f6940e2eb28930efb4cef49b2d1f2c9c1199');
      for (const a of [accounts[0]!, accounts[19]!]) assert.equal(BigInt(await rpc(chain, 'eth_getBalance', [a, 'latest'])), balance);
      // A key signs: the account sends a transaction.
      const hash = await rpc(chain, 'eth_sendTransaction', [{ from: accounts[19], to: accounts[0], value: '0x1' }]);
      assert.match(hash, /^0x[0-9a-f]{64}$/);
    } finally {
      await chain.stop();
    }
  }
});

test("the keys derived from a mnemonic are Hardhat's own derivation's, for its default accounts and another mnemonic, passphrase, path and index", () => {
  const cases = [
    { mnemonic: 'test test test test test test test test test test test junk', passphrase: '', path: "m/44'/60'/0'/0", initialIndex: 0, count: 20 },
    { mnemonic: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about', passphrase: 'TREZOR', path: "m/44'/60'/1'/7", initialIndex: 5, count: 3 },
  ];
  for (const accounts of cases) {
    const hardhat = normalizeHardhatNetworkAccountsConfig({ ...accounts, accountsBalance: '1' }).map((a) => a.privateKey);
    assert.deepEqual(deriveMnemonicKeys(accounts), hardhat);
  }
});

test('automining, timestamps, logs, finality tags and snapshots', async () => {
  const chain = await startDemoChain();
  try {
    const [from] = (await rpc(chain, 'eth_accounts')) as string[];
    const ts = Math.floor(Date.now() / 1000) + 3600;
    await rpc(chain, 'evm_setNextBlockTimestamp', [ts]);
    const hash = await rpc(chain, 'eth_sendTransaction', [{ from, data: LOG_EMITTER_INITCODE }]);
    const receipt = await rpc(chain, 'eth_getTransactionReceipt', [hash]);
    assert.equal(receipt.status, '0x1');
    assert.equal(receipt.blockNumber, '0x1');
    const block = await rpc(chain, 'eth_getBlockByNumber', ['latest', false]);
    assert.equal(Number(block.timestamp), ts);

    const logs = await rpc(chain, 'eth_getLogs', [{ fromBlock: '0x0', toBlock: 'latest' }]);
    assert.equal(logs.length, 1);
    assert.equal(logs[0].address, receipt.contractAddress);
    assert.equal(BigInt(logs[0].topics[0]), 7n);
    assert.equal(BigInt(logs[0].data), 42n);

    // EDR answers finalized/safe with the latest block (no separate finality on a dev chain).
    const finalized = await rpc(chain, 'eth_getBlockByNumber', ['finalized', false]);
    const safe = await rpc(chain, 'eth_getBlockByNumber', ['safe', false]);
    assert.equal(finalized.hash, block.hash);
    assert.equal(safe.hash, block.hash);

    await rpc(chain, 'evm_increaseTime', [600]);
    await rpc(chain, 'evm_mine');
    const mined = await rpc(chain, 'eth_getBlockByNumber', ['latest', false]);
    assert.equal(Number(mined.number), 2);
    assert.ok(Number(mined.timestamp) >= ts + 600);

    // Snapshot/revert replaces blocks: the basis of reorg tests.
    const snap = await rpc(chain, 'evm_snapshot');
    await rpc(chain, 'evm_mine');
    await rpc(chain, 'evm_mine');
    assert.equal(Number(await rpc(chain, 'eth_blockNumber')), 4);
    assert.equal(await rpc(chain, 'evm_revert', [snap]), true);
    assert.equal(Number(await rpc(chain, 'eth_blockNumber')), 2);
    await rpc(chain, 'evm_mine');
    const replaced = await rpc(chain, 'eth_getBlockByNumber', ['0x3', false]);
    assert.equal(replaced.parentHash, mined.hash);
  } finally {
    await chain.stop();
  }
});

test('initialDate back-dates the genesis block', async () => {
  const past = new Date(Date.now() - 30 * 3600 * 1000);
  const chain = await startDemoChain({ initialDate: past });
  try {
    const genesis = await rpc(chain, 'eth_getBlockByNumber', ['0x0', false]);
    assert.ok(Math.abs(Number(genesis.timestamp) - Math.floor(past.getTime() / 1000)) < 5);
  } finally {
    await chain.stop();
  }
});
