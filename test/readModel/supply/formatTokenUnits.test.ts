import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTokenUnits } from '../../../src/readModel/supply/formatTokenUnits.ts';
import { isSpecTokenUnits } from '../../supply/helpers.ts';

// The inverse, written independently: "12.5" with 3 decimals -> 12500n.
function parseTokenUnits(text: string, decimals: number): bigint {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = text.replace('-', '').split('.');
  assert.ok(fraction.length <= decimals, `${text} has more fraction digits than ${decimals}`);
  const value = BigInt(whole + fraction.padEnd(decimals, '0'));
  return negative ? -value : value;
}

describe('formatTokenUnits', () => {
  const cases: [bigint, number, string][] = [
    [0n, 18, '0'],
    [1n, 18, '0.000000000000000001'],
    [10n ** 18n, 18, '1'],
    [7_200_999_000_500_000_000_000_000_000n, 18, '7200999000.5'],
    [72_009_990_000n * 10n ** 18n, 18, '72009990000'],
    [2n ** 64n + 1n, 18, '18.446744073709551617'],
    [1_500_000n, 6, '1.5'],
    [1_230_000n, 6, '1.23'],
    [1n, 6, '0.000001'],
    [100n, 0, '100'],
    [0n, 0, '0'],
    [10n, 1, '1'],
    [-5n, 1, '-0.5'],
    [1n, 255, `0.${'0'.repeat(254)}1`],
    [10n ** 255n, 255, '1'],
    [2n ** 256n - 1n, 0, (2n ** 256n - 1n).toString()],
    [2n ** 256n - 1n, 18, '115792089237316195423570985008687907853269984665640564039457.584007913129639935'],
  ];
  for (const [value, decimals, expected] of cases) {
    it(`${value} with ${decimals} decimals is ${expected.length > 40 ? `${expected.slice(0, 40)}…` : expected}`, () => {
      assert.equal(formatTokenUnits(value, decimals), expected);
    });
  }

  it('never writes an exponent, a trailing zero in the fraction or a trailing dot, and round-trips exactly', () => {
    let seed = 7n;
    const next = () => (seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n);
    for (let i = 0; i < 2000; i++) {
      const value = (next() << 192n) | (next() << 128n) | (next() << 64n) | next();
      const scaled = value >> (next() % 256n); // every magnitude from 0 to 2^256
      const decimals = Number(next() % 256n);
      const text = formatTokenUnits(scaled, decimals);
      assert.ok(isSpecTokenUnits(text), `${text} does not match the spec's TokenUnits`);
      assert.doesNotMatch(text, /e|E|\.$|\.\d*0$/);
      assert.equal(parseTokenUnits(text, decimals), scaled);
    }
  });

  it('refuses decimals outside 0..255', () => {
    for (const bad of [-1, 256, 1.5, Number.NaN]) assert.throws(() => formatTokenUnits(1n, bad), RangeError);
  });
});
