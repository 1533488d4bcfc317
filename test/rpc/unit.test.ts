// Small units: encoding normalisation of upstream transactions, the OpenRPC lint, and the
// generated types being in sync with spec/openrpc.json.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeTransaction } from '../../src/rpc/normalizeTransaction.ts';
import { openrpcSpecPath } from '../../src/spec/specPaths.ts';
import { lintOpenRpc } from '../../scripts/lint-openrpc.ts';

describe('normalizeTransaction', () => {
  const good = {
    hash: `0x${'ab'.repeat(32)}`,
    blockNumber: '0x10',
    nonce: '0x0',
    to: '0xAbCdEf0000000000000000000000000000000001',
    input: '0xdeadbeef',
    accessList: [{ address: '0x00000000000000000000000000000000000000Aa', storageKeys: [`0x${'01'.repeat(32)}`] }],
    extraClientField: { kept: true },
  };

  it('returns conforming input as the very same object', () => {
    assert.equal(normalizeTransaction(good), good);
    assert.equal(normalizeTransaction(null), null);
  });

  it('fixes leading zeros and upper-case hex, keeps every other field and does not mutate', () => {
    const bad = {
      ...good,
      hash: `0x${'AB'.repeat(32)}`,
      blockNumber: '0x0010',
      nonce: '0x00',
      value: '0x001F',
      input: '0xDEADBEEF',
      accessList: [{ address: good.accessList[0]!.address, storageKeys: [`0x${'0A'.repeat(32)}`] }],
      authorizationList: [{ chainId: '0x01', nonce: '0x0', address: good.to, yParity: '0x1', r: '0x0abc', s: '0x1' }],
    };
    const copy = structuredClone(bad);
    const out = normalizeTransaction(bad) as Record<string, unknown>;
    assert.deepEqual(bad, copy, 'input untouched');
    assert.deepEqual(out, {
      ...bad,
      hash: good.hash,
      blockNumber: '0x10',
      nonce: '0x0',
      value: '0x1f',
      input: '0xdeadbeef',
      accessList: [{ address: good.accessList[0]!.address, storageKeys: [`0x${'0a'.repeat(32)}`] }],
      authorizationList: [{ chainId: '0x1', nonce: '0x0', address: good.to, yParity: '0x1', r: '0xabc', s: '0x1' }],
    });
    assert.equal(out.to, good.to, 'addresses keep their checksum case');
    assert.deepEqual(out.extraClientField, { kept: true });
  });
});

describe('scripts/lint-openrpc.ts', () => {
  it('accepts spec/openrpc.json', async () => {
    assert.deepEqual(await lintOpenRpc(), []);
  });

  it('rejects an invalid document and an untitled schema', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openrpc-'));
    const spec = JSON.parse(readFileSync(openrpcSpecPath, 'utf8')) as { methods: Array<Record<string, unknown>>; components: { schemas: Record<string, Record<string, unknown>> } };
    const broken = structuredClone(spec);
    broken.methods[0]!.params = 'not a list';
    writeFileSync(join(dir, 'a.json'), JSON.stringify(broken));
    assert.ok((await lintOpenRpc(join(dir, 'a.json'))).length > 0);
    const untitled = structuredClone(spec);
    delete untitled.components.schemas.Hash32!.title;
    writeFileSync(join(dir, 'b.json'), JSON.stringify(untitled));
    assert.deepEqual(await lintOpenRpc(join(dir, 'b.json')), ['untitled schema at #/components/schemas/Hash32']);
  });
});

describe('generated/rpc', () => {
  it('declares the method signatures of spec/openrpc.json', () => {
    const types = readFileSync(join(import.meta.dirname, '..', '..', 'generated', 'rpc', 'types.ts'), 'utf8');
    assert.match(types, /export type EthGetTransactionByHash = \(transactionHash: TransactionHashParam\) => Promise<TransactionResult>;/);
    assert.match(types, /export type EthGetTransactionByBlockNumberAndIndex = \(blockParameter: BlockNumberOrTag, transactionIndex: TransactionIndexParam\) => Promise<TransactionResult>;/);
    assert.match(types, /export type EthChainId = \(\) => Promise<ChainId>;/);
  });
});
