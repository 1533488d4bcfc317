import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { flatString } from '../../../src/api/catalog/flatString.ts';

describe('flatString', () => {
  const cases: [string, unknown][] = [
    ['ASCII', { name: 'Wrapped Ether', symbol: 'WETH', decimals: 18 }],
    ['accents and CJK', { name: 'Ünïcode émoji 代币', symbol: 'ÜÉ' }],
    ['astral characters', { name: 'rocket 🚀 token', symbol: '🚀' }],
    ['a lone surrogate (JSON.stringify escapes it)', { name: 'broken \ud800 name' }],
    ['long enough to be several parts', { pad: 'x'.repeat(5000), n: 1.5e-7 }],
  ];
  for (const [label, value] of cases) {
    it(`keeps JSON.stringify's text exactly: ${label}`, () => {
      const json = JSON.stringify(value);
      const flat = flatString(json);
      assert.equal(flat, json);
      assert.deepEqual(JSON.parse(flat), JSON.parse(json));
    });
  }
});
