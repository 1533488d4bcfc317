// The demo's trust cases (issue 19; docs/security-score.md), checked over HTTP on a running demo:
// each named token with its expected flags, score band and reason codes.
import assert from 'node:assert/strict';

type Reason = { code: string; impact: number; detail: string };
export type ApiToken = {
  symbol: string;
  contractAddress: string;
  currentPrice: number | null;
  last24hVariation: number | null;
  isPossibleSpam: boolean;
  spamReasons: { code: string; detail: string }[];
  isSecure: boolean;
  security: { score: number; reasons: Reason[] };
  info: { marketCap: number | null; liquidity: number | null; priceSource: { family: string; kind?: string } | null };
};

const codes = (t: ApiToken) => t.security.reasons.map((r) => r.code);

export async function checkDemoTrustCases(url: string): Promise<void> {
  const list = (await (await fetch(`${url}/tokens?limit=100`)).json()) as { data: ApiToken[] };
  const by = new Map(list.data.map((t) => [t.symbol, t]));
  const token = (symbol: string) => {
    const t = by.get(symbol);
    assert.ok(t, `${symbol} listed by GET /tokens`);
    return t;
  };

  // The rule on every token: secure ⇔ score > 70 and market cap > 50,000 USD; never without a price.
  for (const t of list.data) {
    const expected = t.security.score > 70 && t.info.marketCap !== null && t.info.marketCap > 50_000;
    assert.equal(t.isSecure, expected, `${t.symbol}: isSecure by the reference rule (score ${t.security.score}, marketCap ${t.info.marketCap})`);
    if (t.isSecure) assert.ok(t.currentPrice !== null, `${t.symbol}: secure tokens have a price`);
    const sum = t.security.reasons.reduce((n, r) => n + r.impact, 0);
    assert.equal(t.security.score, Math.max(0, Math.min(100, sum)), `${t.symbol}: the score is the clamped sum of its reasons`);
    assert.equal(t.isPossibleSpam, t.spamReasons.length > 0, `${t.symbol}: spam exactly when it has spam reasons`);
    // The liquidity reason names the tier the token's own liquidity figure reaches (docs/security-score.md).
    const liquidity = t.security.reasons.find((r) => r.code === 'liquidity');
    if (liquidity) {
      assert.ok(t.info.liquidity !== null && t.info.liquidity > 0, `${t.symbol}: a liquidity reason only with liquidity`);
      const floor = [1_000_000, 100_000, 10_000].find((min) => t.info.liquidity! >= min);
      const detail = floor === undefined ? 'Priced pools hold less than 10,000 USD' : `Priced pools hold ${floor.toLocaleString('en-US')} USD or more`;
      assert.equal(liquidity.detail, detail, `${t.symbol}: liquidity ${t.info.liquidity} USD`);
    }
  }

  for (const symbol of ['USDC', 'USDT', 'WETH', 'LINEA', 'WBTC']) {
    const t = token(symbol);
    assert.equal(t.isSecure, true, `${symbol} is secure`);
    assert.ok(t.security.score > 70 && t.security.score <= 100, `${symbol} score ${t.security.score}`);
    assert.ok(codes(t).includes('token-list') && codes(t).includes('liquidity'), `${symbol} reasons ${codes(t)}`);
  }
  await checkStablecoins(url, token);
  assert.deepEqual([token('USDC').info.priceSource?.family, token('USDC').info.priceSource?.kind], ['anchor', 'usd-basket'], 'USDC is the basket\'s reference');
  assert.notEqual(token('WETH').info.priceSource?.family, 'anchor', 'WETH is priced by its deepest stablecoin pool');

  const unpriced = token('NONAME');
  assert.deepEqual([unpriced.currentPrice, unpriced.isSecure, unpriced.isPossibleSpam], [null, false, false], 'an unpriced listed token is not secure (and not spam)');
  assert.ok(unpriced.security.score >= 25 && unpriced.security.score <= 40, `NONAME score ${unpriced.security.score}`);
  assert.ok(codes(unpriced).includes('no-price') && codes(unpriced).includes('token-list'));

  const small = token('EMBR');
  assert.ok(small.currentPrice !== null && (small.info.liquidity ?? 0) >= 10_000, 'EMBR is liquid');
  assert.ok(small.info.marketCap !== null && small.info.marketCap < 50_000, `EMBR market cap ${small.info.marketCap}`);
  assert.equal(small.isSecure, false, 'a liquid token under 50,000 USD of market cap is not secure');

  const dotted = token('VELA');
  assert.deepEqual([dotted.isPossibleSpam, dotted.spamReasons, dotted.isSecure], [false, [], true], 'a dotted brand is neither spam nor blocked');

  const lure = token('CLAIM');
  assert.equal(lure.isPossibleSpam, true);
  assert.equal(lure.isSecure, false);
  assert.equal(lure.security.score, 0);
  assert.ok(codes(lure).includes('spam-lure'));
  assert.equal(token('DUST').isPossibleSpam, false, 'illiquid is not spam');

  await checkContractCases(token);

  // DAI's short depeg: in its hourly history and in its 24 h variation.
  const dai = token('DAI');
  const history = (await (await fetch(`${url}/prices/${dai.contractAddress}`)).json()) as { price: number }[];
  const low = Math.min(...history.map((p) => p.price));
  assert.ok(low < 0.98, `DAI's lowest hourly price ${low}`);
  assert.ok(dai.last24hVariation !== null && dai.last24hVariation < -0.2, `DAI's 24 h variation ${dai.last24hVariation}`);
  // the process's price store is the one /metrics reads (an unwired gauge reads 0)
  const metrics = await (await fetch(`${url}/metrics`)).text();
  const held = Number(/^price_histories_held (\d+)$/m.exec(metrics)?.[1]);
  assert.ok(held >= 1, `price_histories_held ${held} after DAI's history was asked for`);
}

const impactOf = (t: ApiToken, code: string) => t.security.reasons.find((r) => r.code === code)?.impact;

// The contract checks (issue 20; docs/security-score.md, "Contract checks"): the four demo cases
// with their reasons and score bands, and the fiat-token proxies that must stay secure.
async function checkContractCases(token: (symbol: string) => ApiToken): Promise<void> {
  for (const symbol of ['USDC', 'USDT']) {
    const t = token(symbol);
    for (const code of ['upgradeable', 'owner', 'mint', 'pause', 'blacklist', 'sellable']) assert.ok(codes(t).includes(code), `${symbol} reasons ${codes(t)} include ${code}`);
    assert.ok(t.isSecure && t.security.score > 70, `${symbol}, an upgradeable, pausable, blacklisting proxy, stays secure (score ${t.security.score})`);
  }
  const proxyDetail = (symbol: string) => token(symbol).security.reasons.find((r) => r.code === 'upgradeable')?.detail ?? '';
  assert.match(proxyDetail('USDC'), /\(ZeppelinOS\): implementation 0x[0-9a-f]{40}, admin 0x[0-9a-f]{40}/, 'USDC keeps its implementation in the ZeppelinOS slot');
  assert.match(proxyDetail('USDT'), /\(EIP-1967\): implementation 0x[0-9a-f]{40}, admin 0x[0-9a-f]{40}/, 'USDT keeps its implementation in the EIP-1967 slot');

  const honey = token('HONEY');
  assert.equal(impactOf(honey, 'sell-reverts'), -80, `HONEY reasons ${codes(honey)}`);
  assert.match(honey.security.reasons.find((r) => r.code === 'sell-reverts')!.detail, /TRANSFER_FAILED/);
  assert.ok(honey.security.score <= 10 && !honey.isSecure, `the honeypot scores 0–10 (${honey.security.score})`);

  const tax = token('TAXY');
  assert.equal(impactOf(tax, 'transfer-tax'), -25, `TAXY reasons ${codes(tax)}`);
  assert.match(tax.security.reasons.find((r) => r.code === 'transfer-tax')!.detail, /lost 5\.0 %/);
  assert.ok(tax.security.score >= 20 && tax.security.score <= 50 && !tax.isSecure, `the taxed token scores 20–50 (${tax.security.score})`);

  const upgradeable = token('UPGD');
  assert.deepEqual([impactOf(upgradeable, 'upgradeable'), impactOf(upgradeable, 'owner'), impactOf(upgradeable, 'mint')], [-5, -1, undefined], `UPGD reasons ${codes(upgradeable)}`);
  assert.ok(upgradeable.security.score >= 40 && upgradeable.security.score <= 70 && !upgradeable.isSecure, `the unlisted upgradeable token scores 40–70 (${upgradeable.security.score})`);

  const mintable = token('MNTR');
  assert.deepEqual([impactOf(mintable, 'mint'), impactOf(mintable, 'owner'), impactOf(mintable, 'upgradeable')], [-3, -1, undefined], `MNTR reasons ${codes(mintable)}`);
  assert.ok(mintable.security.score >= 40 && mintable.security.score <= 70 && !mintable.isSecure, `the owner-mintable token scores 40–70 (${mintable.security.score})`);

  // A plain token: no contract reason moves its score, and its sale simulates.
  const plain = token('WBTC');
  assert.deepEqual(plain.security.reasons.filter((r) => ['upgradeable', 'owner', 'mint', 'pause', 'blacklist', 'sell-reverts', 'transfer-tax'].includes(r.code)), []);
  assert.ok(codes(plain).includes('sellable'), `WBTC reasons ${codes(plain)}`);
}


/**
 * USD is the stablecoin basket's median: USDC and USDT, whose own pools stay on the peg, read 1
 * within ±0.05 % in every hourly high, low and close of the whole history; DAI's depeg (to 0.965,
 * 3 hours before the history ends) shows in its candles.
 */
async function checkStablecoins(url: string, token: (symbol: string) => ApiToken): Promise<void> {
  const from = new Date(Date.now() - 10 * 86_400_000).toISOString();
  const candles = async (symbol: string, since = from) => {
    const res = await fetch(`${url}/prices/${token(symbol).contractAddress}/candles?interval=1h&from=${since}`);
    assert.equal(res.status, 200, `${symbol} candles`);
    return ((await res.json()) as { candles: { high: number[]; low: number[]; close: number[] } }).candles;
  };
  for (const symbol of ['USDC', 'USDT']) {
    const c = await candles(symbol);
    assert.ok(c.close.length >= 190, `${symbol}: ${c.close.length} hourly candles over the history`);
    const prices = [...c.high, ...c.low, ...c.close, token(symbol).currentPrice!];
    const worst = Math.max(...prices.map((p) => Math.abs(p - 1)));
    assert.ok(worst <= 0.0005, `${symbol}: every hourly high, low and close within 0.05 % of 1 (worst ${worst})`);
  }
  // The trough (1.5 h before the history's end) is inside the last 24 h: its hourly lows show it.
  const dai = await candles('DAI', new Date(Date.now() - 24 * 3_600_000).toISOString());
  assert.ok(Math.min(...dai.low) <= 0.98, `DAI's depeg shows in its last 24 h of candles (lowest ${Math.min(...dai.low)})`);
}
