import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareDecimals } from '../../../src/readModel/tokens/compareDecimals.ts';

const cases: [string, string, -1 | 0 | 1][] = [
  ['1', '2', -1],
  ['10', '9', 1],
  ['9.99', '10', -1],
  ['0.000000000000000001', '0.000000000000000002', -1],
  ['3012.123456789012345678', '3012.123456789012345679', -1], // equal as doubles
  ['1.50', '1.5', 0],
  ['-1', '1', -1],
  ['-10', '-9', -1],
  ['-0.5', '-0.25', -1],
  ['0', '-0', 0],
  ['0.0', '0', 0],
  ['115792089237316195423570985008687907853269984665640564039457584007913129639935', '1e3', 1],
  ['007', '7', 0],
];

describe('compareDecimals', () => {
  for (const [a, b, expected] of cases) {
    it(`${a.slice(0, 20)} vs ${b.slice(0, 20)} → ${expected}`, () => {
      assert.equal(Math.sign(compareDecimals(a, b)), expected);
      assert.equal(Math.sign(compareDecimals(b, a)), -expected || 0);
    });
  }
});
