// The reasons and impacts of contract findings (docs/security-score.md, "Contract checks"), case by case.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ContractFindings } from '../../../src/indexer/contractChecks/ContractFindings.ts';
import { contractReasons } from '../../../src/indexer/contractChecks/contractReasons.ts';
import { securityScore } from '../../../src/indexer/trust/securityScore.ts';
import { SCALE } from '../../../src/indexer/math/fixed.ts';

const OWNER = '0x00000000000000000000000000000000000000aa';
const ADMIN = '0x00000000000000000000000000000000000000bb';
const IMPL = '0x00000000000000000000000000000000000000cc';
const sellable: ContractFindings['sell'] = { result: 'ok', holder: '0x01', pool: '0x02', amount: '5' };
const plain: ContractFindings = { hasCode: true, proxy: null, owner: null, ownerRenounced: false, powers: [], sell: sellable, taxes: [] };
const fiatPowers: ContractFindings['powers'] = [
  { power: 'mint', signature: 'mint(address,uint256)' }, { power: 'pause', signature: 'pause()' }, { power: 'blacklist', signature: 'blacklist(address)' },
];

describe('contractReasons', () => {
  const cases: [string, Partial<ContractFindings>, Record<string, number>][] = [
    ['a plain token that sells', {}, { sellable: 0 }],
    ['no sale on record', { sell: { result: 'untested', why: 'no recent buyer on record' } }, { 'sell-untested': 0 }],
    ['a honeypot', { sell: { result: 'reverts', holder: '0x01', pool: '0x02', amount: '5', error: 'TRANSFER_FAILED' } }, { 'sell-reverts': -80 }],
    ['an active owner', { owner: OWNER }, { sellable: 0, owner: -1 }],
    ['fiat-style proxy: upgradeable, owner with mint, pause, blacklist', { proxy: { standard: 'zeppelinos', implementation: IMPL, admin: ADMIN }, owner: OWNER, powers: fiatPowers }, { sellable: 0, upgradeable: -5, owner: -1, mint: -3, pause: -1, blacklist: -2 }],
    ['powers nobody holds (owner renounced, no proxy) cost nothing', { ownerRenounced: true, powers: fiatPowers }, { sellable: 0 }],
    ['powers behind a proxy without owner: the admin holds them by an upgrade', { proxy: { standard: 'eip1967', implementation: IMPL, admin: ADMIN }, powers: [fiatPowers[0]!] }, { sellable: 0, upgradeable: -5, mint: -3 }],
    ['a 1 % tax', { taxes: [{ side: 'sell', bps: 100, tx: '0xt' }] }, { sellable: 0, 'transfer-tax': -10 }],
    ['a 5 % buy tax and a 12 % sell tax: the worst counts once', { taxes: [{ side: 'buy', bps: 500, tx: '0xa' }, { side: 'sell', bps: 1200, tx: '0xb' }] }, { sellable: 0, 'transfer-tax': -40 }],
  ];
  for (const [name, findings, expected] of cases) {
    it(name, () => {
      const reasons = contractReasons({ ...plain, ...findings });
      assert.deepEqual(Object.fromEntries(reasons.map((r) => [r.code, r.impact])), expected);
      for (const r of reasons) assert.ok(r.detail.length > 0);
    });
  }

  it('names the proxy standard, the implementation and the admin', () => {
    const [reason] = contractReasons({ ...plain, proxy: { standard: 'eip1967-beacon', implementation: IMPL, admin: ADMIN } });
    assert.equal(reason?.detail, `Upgradeable proxy (EIP-1967 beacon): implementation ${IMPL}, beacon ${ADMIN}`);
  });
});

describe('securityScore with contract findings', () => {
  const input = {
    now: new Date('2026-11-25T00:00:00Z'), listed: true, priced: true, liquidity: 2_000_000n * SCALE, swaps24h: 150,
    firstSeenAt: new Date('2026-11-20T00:00:00Z'), sourcePoolCreatedAt: new Date('2026-11-20T00:00:00Z'), spamReasons: [],
  };
  it('a listed, liquid, busy fiat-style proxy stays above 70 (worst demo case: 83 before the checks)', () => {
    const fiat: ContractFindings = { ...plain, proxy: { standard: 'zeppelinos', implementation: IMPL, admin: ADMIN }, owner: OWNER, powers: fiatPowers };
    const before = securityScore({ ...input, swaps24h: 50 }).score;
    const after = securityScore({ ...input, swaps24h: 50, contract: fiat }).score;
    assert.equal(before - after, 12);
    assert.ok(after > 70, `score ${after}`);
  });
  it('a honeypot with the same market scores at most 10', () => {
    const honey: ContractFindings = { ...plain, owner: OWNER, sell: { result: 'reverts', holder: '0x01', pool: '0x02', amount: '5' } };
    assert.ok(securityScore({ ...input, listed: false, contract: honey }).score <= 10);
  });
});
