// The circulating-supply rule and market cap in exact arithmetic, whose balances each token
// subtracts, and which tokens a batch reads within its call budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { supplyFigures } from '../../../src/chain/supply/supplyFigures.ts';
import { SupplyReadError } from '../../../src/chain/supply/SupplyReadError.ts';
import { parseCirculatingConfig } from '../../../src/config/circulatingConfig.ts';
import { parseSupplyConfig } from '../../../src/config/supplyConfig.ts';
import { circulatingRules } from '../../../src/indexer/circulating/circulatingRules.ts';
import { isCirculatingDue, pickCirculating } from '../../../src/indexer/circulating/pickCirculating.ts';
import type { IndexerToken } from '../../../src/db/indexer/index.ts';
import { marketCapOf } from '../../../src/indexer/circulating/marketCapOf.ts';
import { fdvOf } from '../../../src/indexer/classifyToken.ts';
import { formatFixed, parseFixed } from '../../../src/indexer/math/fixed.ts';

const E18 = 10n ** 18n;

describe('circulating supply = total supply − burned − excluded', () => {
  const cases: [string, bigint, bigint[], bigint[], bigint][] = [
    ['nothing held aside', 1000n, [0n, 0n], [], 1000n],
    ['burned at the zero and dead addresses', 1000n, [1n, 99n], [], 900n],
    ['the token itself and a treasury', 72_009_990_000n * E18, [0n, 5n * E18], [3n, 10_801_498_500n * E18], 61_208_491_495n * E18 - 3n],
    ['everything held aside', 10n, [4n], [6n], 0n],
    ['beyond 2^256 sums stay exact', 2n ** 256n - 1n, [2n ** 255n], [2n ** 254n], 2n ** 254n - 1n],
  ];
  for (const [name, supply, burned, excluded, expected] of cases) {
    it(name, () => {
      const f = supplyFigures(supply, burned, excluded, 'in a test');
      assert.equal(f.circulatingSupply, expected);
      assert.equal(f.totalSupply, supply - burned.reduce((a, b) => a + b, 0n));
      assert.equal(f.circulatingSupply, f.totalSupply - f.excludedSum);
    });
  }

  it('balances above the supply are refused, not published as a negative figure', () => {
    assert.throws(() => supplyFigures(10n, [5n], [6n], 'of 0xabc at block 7'), (e: unknown) => e instanceof SupplyReadError && /of 0xabc at block 7/.test(e.message));
    assert.throws(() => supplyFigures(10n, [11n], [], 'x'), SupplyReadError);
  });
});

describe('market cap = price × circulating supply / 10^decimals', () => {
  const price = (s: string) => parseFixed(s);
  const cases: [string, string | null, bigint | null, number, string | null][] = [
    ['a network token', '0.025', 28_803_995_999_500_000_000_000_000_000n, 18, '720099899.9875'],
    ['6 decimals, price 1', '1', 940_000_000_000_000n, 6, '940000000'],
    ['0 decimals', '1200.5', 321n, 0, '385360.5'],
    ['a sub-cent price keeps every digit', '0.000123456789012345678901', 10n ** 21n, 9, '123456789.012345678901'],
    ['no price', null, 10n, 18, null],
    ['no circulating supply yet', '3', null, 18, null],
    ['nothing circulating', '3', 0n, 18, '0'],
  ];
  for (const [name, p, circulating, decimals, expected] of cases) {
    it(name, () => {
      const cap = marketCapOf(p === null ? null : price(p), circulating, decimals);
      assert.equal(cap === null ? null : formatFixed(cap, 18), expected);
    });
  }

  it('equals fdv when nothing is held aside, and is below it otherwise', () => {
    const p = price('42.123456789');
    const total = 5_000_000n * 10n ** 12n;
    assert.equal(marketCapOf(p, total, 12), fdvOf(p, total, 12));
    assert.ok(marketCapOf(p, total - 1n, 12)! < fdvOf(p, total, 12));
  });
});

describe('whose balances each token subtracts', () => {
  const TOKEN = '0x00000000000000000000000000000000000000aa';
  const OTHER = '0x00000000000000000000000000000000000000bb';
  const TREASURY = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
  const config = parseCirculatingConfig({ tokens: [{ address: TOKEN, label: 'A', excludedWallets: [{ address: TREASURY, label: 'Treasury' }] }] }, 'inline');

  it('burn addresses first, then the token itself, then its excluded wallets', () => {
    const rules = circulatingRules({ config });
    assert.deepEqual(rules.holdersOf(TOKEN), ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead', TOKEN, TREASURY.toLowerCase()]);
    assert.deepEqual(rules.holdersOf(OTHER), ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead', OTHER]);
    assert.equal(rules.networkToken, null);
  });

  it('the network token reads what its supply configuration lists', () => {
    const supply = parseSupplyConfig({ source: { kind: 'l1Synced', method: 'l1TotalSupply' }, excludedWallets: [{ address: TREASURY, label: 'T' }] }, 'inline');
    const rules = circulatingRules({ config, networkToken: { address: OTHER.toUpperCase().replace('0X', '0x'), supply } });
    assert.equal(rules.networkToken?.address, OTHER);
    assert.deepEqual(rules.networkToken?.holders, ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead', TREASURY.toLowerCase()]);
    assert.equal(rules.networkToken?.supply.source.method, 'l1TotalSupply()');
  });

  it('without a configuration: the default burn addresses', () => {
    assert.deepEqual(circulatingRules().burnAddresses, ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dead']);
  });
});

describe('which tokens a batch reads', () => {
  const MIN = 60_000;
  const T0 = Date.parse('2026-11-20T12:00:00Z'); // a multiple of 10 minutes
  const token = (address: string, block: number | null, readAt: number | null): IndexerToken => ({
    address, name: address, symbol: address, decimals: 18, decimalsKnown: true, listed: false, logo: null, totalSupply: 1000n, supplyBlock: 0,
    firstSeenBlock: 0, firstSeenAt: new Date(0), circulatingSupply: block === null ? null : 900n, circulatingBlock: block, circulatingReadAt: readAt === null ? null : new Date(readAt),
  });
  const tokens = (...list: IndexerToken[]) => new Map(list.map((t) => [t.address, t]));
  const batch = { fromBlock: 101, toBlock: 110, toTime: T0 + 5 * MIN, refreshMs: 10 * MIN, maxCalls: 1000, cost: () => 4 };

  it('reads the touched tokens, then those never read or not read since the window began, by address', () => {
    const state = tokens(
      token('0xe', 100, T0 + MIN), // read in this window
      token('0xd', 90, T0 - MIN), // read in the previous window
      token('0xc', null, null), // never read (new, or stored before migration 009)
      token('0xb', 100, T0), // read at the window's first instant
      token('0xa', 100, T0 + 2 * MIN),
    );
    assert.deepEqual(pickCirculating(state, ['0xe', '0xe', '0xz'], batch), ['0xe', '0xc', '0xd']);
  });

  it('a figure read on a block the batch indexes again (after a rollback) is read again', () => {
    const state = tokens(token('0xa', 104, T0 + MIN), token('0xb', 100, T0 + MIN));
    assert.deepEqual(pickCirculating(state, [], batch), ['0xa']);
  });

  it('interval 0 reads every token at every batch', () => {
    const state = tokens(token('0xc', 100, T0 + 5 * MIN), token('0xb', 60, T0 - MIN), token('0xa', null, null));
    assert.deepEqual(pickCirculating(state, [], { ...batch, refreshMs: 0 }), ['0xa', '0xb', '0xc']);
    assert.deepEqual(pickCirculating(state, [], batch), ['0xa', '0xb'], 'with 10-minute windows, 0xc was read in this one');
  });

  it('a batch spends at most its call budget, touched tokens first; what is left stays due for the next batch', () => {
    const state = tokens(...['0x1', '0x2', '0x3', '0x4', '0x5'].map((a) => token(a, null, null)));
    const tight = { ...batch, maxCalls: 10 };
    assert.deepEqual(pickCirculating(state, ['0x5'], tight), ['0x5', '0x1']);
    for (const a of ['0x5', '0x1']) Object.assign(state.get(a)!, { circulatingBlock: 110, circulatingReadAt: new Date(batch.toTime) });
    const next = { ...tight, fromBlock: 111, toBlock: 111, toTime: batch.toTime + MIN };
    assert.deepEqual(pickCirculating(state, [], next), ['0x2', '0x3']);
  });

  it('a token dearer than the whole budget is still read, alone', () => {
    assert.deepEqual(pickCirculating(tokens(token('0xa', null, null), token('0xb', null, null)), [], { ...batch, maxCalls: 10, cost: () => 50 }), ['0xa']);
  });

  it('nothing due, nothing touched: nothing read', () => {
    assert.deepEqual(pickCirculating(tokens(token('0xa', 100, T0 + MIN)), [], batch), []);
    assert.equal(isCirculatingDue(token('0xa', 100, T0 + MIN), batch), false);
    assert.equal(isCirculatingDue(token('0xa', 100, T0 + MIN), { ...batch, toTime: T0 + 10 * MIN }), true, 'a new window');
  });
});
