// The circulating-supply rule and market cap in exact arithmetic, whose balances each token
// subtracts, and which tokens a batch reads within its call budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { supplyFigures } from '../../../src/chain/supply/supplyFigures.ts';
import { SupplyReadError } from '../../../src/chain/supply/SupplyReadError.ts';
import { parseCirculatingConfig } from '../../../src/config/circulatingConfig.ts';
import { parseSupplyConfig } from '../../../src/config/supplyConfig.ts';
import { circulatingRules } from '../../../src/indexer/circulating/circulatingRules.ts';
import { createCirculatingSchedule } from '../../../src/indexer/circulating/createCirculatingSchedule.ts';
import { marketCapOf } from '../../../src/indexer/circulating/marketCapOf.ts';
import { fdvOf } from '../../../src/indexer/classifyToken.ts';
import { formatFixed, parseFixed } from '../../../src/indexer/fixed.ts';

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
  const all = ['a', 'b', 'c', 'd', 'e', 'f'];
  const cost = () => 4;

  it('the first batch after a start sweeps every token; later ones only what they touched, until the interval has passed', () => {
    let now = 1_000;
    const s = createCirculatingSchedule({ refreshMs: 600_000, maxCalls: 1000, now: () => now });
    assert.deepEqual(s.pick([], () => all, cost), all);
    assert.deepEqual(s.pick(['c'], () => all, cost), ['c']);
    assert.deepEqual(s.pick([], () => all, cost), []);
    now += 599_999;
    assert.deepEqual(s.pick(['b', 'b'], () => all, cost), ['b']);
    now += 1;
    assert.deepEqual(s.pick(['b'], () => all, cost), ['b', 'a', 'c', 'd', 'e', 'f']);
  });

  it('a batch spends at most its call budget: touched tokens first, the rest deferred, the sweep continued', () => {
    const s = createCirculatingSchedule({ refreshMs: 600_000, maxCalls: 10, now: () => 0 });
    assert.deepEqual(s.pick(['e', 'f', 'a'], () => all, cost), ['e', 'f']);
    assert.deepEqual(s.stats().sweeping, 4, 'e and f are not read twice in this sweep');
    assert.deepEqual(s.pick([], () => all, cost), ['a', 'b'], 'the deferred token first');
    assert.deepEqual(s.pick([], () => all, cost), ['c', 'd']);
    assert.deepEqual(s.pick([], () => all, cost), []);
  });

  it('a token dearer than the whole budget is still read, alone', () => {
    const s = createCirculatingSchedule({ refreshMs: 600_000, maxCalls: 10, now: () => 0 });
    assert.deepEqual(s.pick(['x'], () => [], () => 50), ['x']);
  });

  it('interval 0 sweeps at every batch; deferred tokens (a rollback) come first', () => {
    const s = createCirculatingSchedule({ refreshMs: 0, maxCalls: 1000, now: () => 0 });
    assert.deepEqual(s.pick([], () => all, cost), all);
    s.defer(['f']);
    assert.deepEqual(s.pick(['a'], () => all, cost), ['f', 'a', 'b', 'c', 'd', 'e']);
  });

  it('counts failed reads', () => {
    const s = createCirculatingSchedule({ refreshMs: 0, maxCalls: 1000 });
    s.failed(2);
    s.failed(1);
    assert.equal(s.stats().failures, 3);
  });
});
