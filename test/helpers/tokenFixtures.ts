// Deterministic token writes for tests: varied values, ties and nulls in every order column.
import type { TokenWrite } from '../../src/db/index.ts';

export const BASE_TIME = new Date('2026-11-20T00:00:00.000Z');

export function addressOf(i: number): string {
  return `0x${(i + 1).toString(16).padStart(40, '0')}`;
}

/** `count` tokens; every third has no price (nulls), values repeat in small cycles (ties). */
export function makeTokens(count: number): TokenWrite[] {
  return Array.from({ length: count }, (_, i) => {
    const priced = i % 3 !== 0;
    // values of different digit counts and signs: a text comparison would misorder them
    const price = priced ? `${((i % 7) * 3 + 1) * 10 ** ((i % 3) - 1)}` : null;
    const supply = 10n ** BigInt(6 + (i % 4) * 6) * BigInt((i % 5) + 1);
    return {
      address: addressOf(i),
      name: `Token ${String.fromCharCode(65 + (i % 26))}${i % 4}`,
      symbol: `T${i % 6}`,
      decimals: [6, 8, 18, 0][i % 4]!,
      logo: i % 2 === 0 ? `https://tokens.example/logo/${i}.png` : null,
      totalSupply: supply,
      currentPrice: price,
      priceUpdatedAt: priced ? new Date(BASE_TIME.getTime() + (i % 4) * 3_600_000) : null,
      marketUpdatedAt: priced ? new Date(BASE_TIME.getTime() + (i % 5) * 1_800_000) : null,
      last24hVariation: priced ? `${((i % 9) - 4) * 3}.5` : null,
      // younger histories: a 7 d window without a start price where a 1 h one has one
      priceChange1h: priced ? `${((i % 11) - 5) * 0.25}` : null,
      priceChange6h: priced ? `${((i % 5) - 2) * 1.5}` : null,
      priceChange7d: priced && i % 4 !== 1 ? `${((i % 13) - 6) * 7}.25` : null,
      fdv: priced ? `${10 ** (i % 5) * ((i % 3) + 1)}` : null,
      liquidity: priced ? `${(i % 4) * 1000}.${i % 10}` : null,
      // below fdv, in a cycle of its own (ties, and nulls where the circulating supply is unknown)
      circulatingSupply: i % 7 === 6 ? null : supply / BigInt((i % 3) + 1),
      marketCap: priced && i % 7 !== 6 ? `${10 ** (i % 5)}.${i % 4}` : null,
      isPossibleSpam: i % 5 === 0,
      spamReasons: i % 5 === 0 ? JSON.stringify([{ code: 'url', detail: `name contains the URL "https://t${i}.xyz"` }]) : '[]',
      isSecure: i % 2 === 1,
      // a cycle of its own (ties across pages); the one reason sums to the score
      security: { score: (i * 37) % 101, reasons: JSON.stringify([{ code: 'baseline', impact: (i * 37) % 101, detail: 'fixture' }]) },
      firstSeenAt: new Date(BASE_TIME.getTime() - (i % 3) * 60_000),
      at: new Date(BASE_TIME.getTime() + (i % 2) * 60_000),
    };
  });
}
