import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { formatTokenUnits } from '../../src/readModel/supply/formatTokenUnits.ts';
import { parseSupplyConfig } from '../../src/config/supplyConfig.ts';
import { testApp, type TestApp } from '../helpers/testApp.ts';
import { balanceOf, DEAD, E18, isSpecTokenUnits, send, startSupplyWorld, supplyApp, totalSupplyOf, type SupplyWorld } from './helpers.ts';

type Kind = 'total' | 'circulating';

describe('GET /supply/total and /supply/circulating on the demo chain', () => {
  let world: SupplyWorld;
  let app: TestApp;
  let token: string;

  const raw = async (kind: Kind, query = '') => {
    const res = await request(app).get(`/supply/${kind}?contractAddress=${token}${query}`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
    assert.ok(isSpecTokenUnits(res.text), `${res.text} is not TokenUnits`);
    return res.text;
  };
  const json = async (kind: Kind) => {
    const res = await request(app).get(`/supply/${kind}?contractAddress=${token}&format=json`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.equal(res.headers['x-supply-block-number'], String(res.body.blockNumber));
    return res.body;
  };
  // Base units of both figures, checking the JSON invariant on the way.
  const figures = async () => {
    const total = await json('total');
    const circulating = await json('circulating');
    assertConsistent(total, circulating);
    return { total: BigInt(total.totalSupply.baseUnits), circulating: BigInt(circulating.circulatingSupply.baseUnits) };
  };

  before(async () => {
    world = await startSupplyWorld();
    token = world.deployment.networkToken.address;
    // No caching: every request reads the chain, so each test sees its own transactions.
    ({ app } = supplyApp(world, { cacheSeconds: 0 }));
  });
  after(() => world.stop());

  it('answers the demo token supply: raw by default, raw and json agree, exact above 2^64', async () => {
    const supply = await totalSupplyOf(world, token);
    assert.ok(supply > 2n ** 64n);
    const total = await json('total');
    assert.equal(total.contractAddress, token);
    assert.equal(total.symbol, 'LINEA');
    assert.equal(total.decimals, 18);
    assert.deepEqual(total.source, { kind: 'totalSupply', method: 'totalSupply()' });
    assert.equal(total.sourceSupply.baseUnits, supply.toString());
    assert.equal(total.stale, false);
    assert.equal(await raw('total'), total.totalSupply.tokens);
    assert.equal(await raw('total', '&format=raw'), total.totalSupply.tokens);
    const circulating = await json('circulating');
    assert.equal(await raw('circulating'), circulating.circulatingSupply.tokens);
    assertConsistent(total, circulating);
    // The deployment minted 15 % to the treasury and 45 % to the ecosystem fund.
    assert.deepEqual(circulating.excluded.wallets.map((w: { label: string }) => w.label), ['Treasury', 'Ecosystem fund']);
    const { treasury, ecosystem } = world.deployment.networkToken;
    assert.equal(circulating.excluded.wallets[0].address, treasury);
    assert.equal(circulating.excluded.wallets[0].balance.baseUnits, (await balanceOf(world, token, treasury)).toString());
    assert.equal(circulating.excluded.wallets[1].balance.baseUnits, (await balanceOf(world, token, ecosystem)).toString());
  });

  it('reads every figure at one pinned block, the latest one', async () => {
    const latest = await world.client.latestBlock();
    const total = await json('total');
    assert.equal(total.blockNumber, latest.number);
    assert.equal(total.blockTimestamp, new Date(latest.timestamp * 1000).toISOString());
  });

  it('burning lowers the total by exactly the burned amount', async () => {
    const [burner] = world.deployment.networkToken.burners;
    const amount = 1234n * E18 + 567_800_000_000_000_001n; // 1234.567800000000000001
    const before = await figures();
    await send(world, burner as string, token, 'burn', [amount]);
    const afterBurn = await figures();
    assert.equal(before.total - afterBurn.total, amount);
    assert.equal(before.circulating - afterBurn.circulating, amount);
    assert.equal(await raw('total'), formatTokenUnits(afterBurn.total, 18));
  });

  it('tokens sent to 0x…dEaD count as burned, exactly, and show in the JSON', async () => {
    const [, burner] = world.deployment.networkToken.burners;
    const amount = 5n * E18 + 5n;
    const before = await json('total');
    await send(world, burner as string, token, 'transfer', [DEAD, amount]);
    const after = await json('total');
    assert.equal(BigInt(before.totalSupply.baseUnits) - BigInt(after.totalSupply.baseUnits), amount);
    assert.equal(after.sourceSupply.baseUnits, before.sourceSupply.baseUnits); // nothing left the contract's totalSupply()
    const dead = after.burned.wallets.find((w: { address: string }) => w.address === DEAD);
    assert.equal(BigInt(dead.balance.baseUnits), amount);
    assert.equal(dead.label, 'Dead address');
  });

  it('moving tokens into and out of an excluded wallet changes only the circulating supply, by exactly that amount', async () => {
    const [, , burner] = world.deployment.networkToken.burners;
    const { treasury, ecosystem } = world.deployment.networkToken;
    const trader = world.deployment.accounts.traders[0] as string;
    const into = 777n * E18 + 1n;
    const out = 42n * E18 + 3n;
    const start = await figures();
    await send(world, burner as string, token, 'transfer', [treasury, into]);
    const afterIn = await figures();
    assert.equal(afterIn.total, start.total);
    assert.equal(start.circulating - afterIn.circulating, into);
    await send(world, ecosystem, token, 'transfer', [trader, out]);
    const afterOut = await figures();
    assert.equal(afterOut.total, start.total);
    assert.equal(afterOut.circulating - afterIn.circulating, out);
    // Between two excluded wallets: nothing changes.
    await send(world, treasury, token, 'transfer', [ecosystem, into]);
    assert.deepEqual(await figures(), afterOut);
  });

  it('the L1-synced source reads the configured view instead of totalSupply()', async () => {
    const config = parseSupplyConfig(
      { source: { kind: 'l1Synced', method: 'l1TotalSupply' }, excludedWallets: world.config.excludedWallets },
      'inline',
    );
    const { app: l1App } = supplyApp(world, { cacheSeconds: 0, config });
    const l1Supply = 70_000_000_000n * E18 + 1n; // burns on L1 lowered it; 2^64 is far below
    await send(world, world.deployment.accounts.deployer, token, 'syncL1TotalSupply', [l1Supply, 21_000_000n]);
    const res = await request(l1App).get(`/supply/total?contractAddress=${token}&format=json`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.source, { kind: 'l1Synced', method: 'l1TotalSupply()' });
    assert.equal(res.body.sourceSupply.baseUnits, l1Supply.toString());
    const burned = BigInt(res.body.burned.sum.baseUnits);
    assert.ok(burned > 0n); // the 0x…dEaD balance from the test above
    assert.equal(BigInt(res.body.totalSupply.baseUnits), l1Supply - burned);
    const rawRes = await request(l1App).get(`/supply/total?contractAddress=${token}`);
    assert.equal(rawRes.text, formatTokenUnits(l1Supply - burned, 18));
    // The plain totalSupply() source is unaffected by the sync.
    assert.notEqual((await json('total')).sourceSupply.baseUnits, l1Supply.toString());
  });

  it('a 6-decimal token and a 255-decimal token round-trip exactly', async () => {
    const usdc = world.deployment.tokens.find((t) => t.symbol === 'USDC')?.address as string;
    const { deployer, traders } = world.deployment.accounts;
    const config = parseSupplyConfig({ excludedWallets: [{ address: deployer, label: 'Deployer' }] }, 'inline');
    const { app: usdcApp } = supplyApp(world, { cacheSeconds: 0, config, tokenAddress: usdc });
    const get = async (kind: Kind, format: string) => request(usdcApp).get(`/supply/${kind}?contractAddress=${usdc}&format=${format}`);
    const before = (await get('circulating', 'json')).body;
    assert.equal(before.decimals, 6);
    assert.equal(before.totalSupply.baseUnits, (await totalSupplyOf(world, usdc)).toString());
    assert.equal((await get('total', 'raw')).text, '10000000000');
    await world.client.send(traders[0] as string, usdc, 'DemoToken', 'transfer', [deployer, 1n]);
    await world.client.mine();
    const after = (await get('circulating', 'json')).body;
    assert.equal(BigInt(before.circulatingSupply.baseUnits) - BigInt(after.circulatingSupply.baseUnits), 1n);
    assert.equal((await get('circulating', 'raw')).text, after.circulatingSupply.tokens);
    assert.match(after.circulatingSupply.tokens, /^\d+\.\d{1,6}$|^\d+$/);

    const maxDecimals = world.deployment.hostileTokens.maxDecimals;
    const { app: maxApp } = supplyApp(world, { cacheSeconds: 0, config: parseSupplyConfig({}, 'inline'), tokenAddress: maxDecimals });
    const res = await request(maxApp).get(`/supply/total?contractAddress=${maxDecimals}&format=json`);
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.decimals, 255);
    const supply = await totalSupplyOf(world, maxDecimals);
    assert.equal(res.body.totalSupply.baseUnits, supply.toString());
    const rawText = (await request(maxApp).get(`/supply/total?contractAddress=${maxDecimals}`)).text;
    assert.equal(rawText, formatTokenUnits(supply, 255));
    assert.equal(BigInt(rawText.replace('0.', '').padEnd(255, '0')), supply); // 10^30 base units are 10^-225 tokens
  });

  for (const [label, transform] of [
    ['lower case', (a: string) => a.toLowerCase()],
    ['upper case', (a: string) => `0x${a.slice(2).toUpperCase()}`],
    ['checksummed', (a: string) => a],
  ] as const) {
    it(`accepts the token address in ${label}`, async () => {
      const res = await request(app).get(`/supply/circulating?contractAddress=${transform(token)}&format=json`);
      assert.equal(res.status, 200);
      assert.equal(res.body.contractAddress, token);
    });
  }

  describe('bad input', () => {
    const expectProblem = (res: request.Response, status: number) => {
      assert.equal(res.status, status, res.text);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.equal(res.body.status, status);
    };
    for (const kind of ['total', 'circulating'] as Kind[]) {
      it(`/supply/${kind} without contractAddress is 400 naming it`, async () => {
        const res = await request(app).get(`/supply/${kind}`);
        expectProblem(res, 400);
        assert.deepEqual(res.body.errors.map((e: { field: string; in: string }) => [e.field, e.in]), [['contractAddress', 'query']]);
      });

      for (const bad of ['0x123', 'e5d7c2a44ffddf6b295a15c148167daaaf5cf34f00', '0xg5d7c2a44ffddf6b295a15c148167daaaf5cf34f', '']) {
        it(`/supply/${kind}?contractAddress=${bad || '(empty)'} is 400 naming contractAddress`, async () => {
          const res = await request(app).get(`/supply/${kind}?contractAddress=${bad}`);
          expectProblem(res, 400);
          assert.equal(res.body.errors[0].field, 'contractAddress');
        });
      }

      it(`/supply/${kind} for another token is 404 saying which token is served`, async () => {
        const usdc = world.deployment.stablecoins[0] as string;
        const res = await request(app).get(`/supply/${kind}?contractAddress=${usdc.toLowerCase()}`);
        expectProblem(res, 404);
        assert.match(res.body.detail, new RegExp(`only for the network token ${token}, not ${usdc.toLowerCase()}`));
      });

      it(`/supply/${kind}?format=xml is 400 naming format`, async () => {
        const res = await request(app).get(`/supply/${kind}?contractAddress=${token}&format=xml`);
        expectProblem(res, 400);
        assert.equal(res.body.errors[0].field, 'format');
        assert.match(res.body.errors[0].message, /allowed values|raw, json/);
      });

      it(`/supply/${kind} with an undeclared parameter ignores it and names it (X-Ignored-Parameters)`, async () => {
        const plain = await request(app).get(`/supply/${kind}?contractAddress=${token}`);
        const res = await request(app).get(`/supply/${kind}?contractAddress=${token}&decimals=6`);
        assert.equal(res.status, 200, res.text);
        assert.equal(res.text, plain.text);
        assert.equal(res.headers['x-ignored-parameters'], 'decimals');
        assert.equal(plain.headers['x-ignored-parameters'], undefined);
      });
    }

    it('without a configured network token the supply paths are 404', async () => {
      const res = await request(testApp(world.db)).get(`/supply/total?contractAddress=${token}`);
      expectProblem(res, 404);
      assert.match(res.body.detail, /No network token is configured/);
    });
  });
});

type Amount = { tokens: string; baseUnits: string };
type Wallets = { wallets: { balance: Amount }[]; sum: Amount };

// Every amount's two forms agree; sums are sums; circulating = total − Σ excluded, total = source − Σ burned.
function assertConsistent(total: Record<string, any>, circulating: Record<string, any>): void {
  const decimals = total.decimals as number;
  const check = (a: Amount) => assert.equal(a.tokens, formatTokenUnits(BigInt(a.baseUnits), decimals));
  const checkWallets = (w: Wallets) => {
    w.wallets.forEach((x) => check(x.balance));
    check(w.sum);
    assert.equal(BigInt(w.sum.baseUnits), w.wallets.reduce((s, x) => s + BigInt(x.balance.baseUnits), 0n));
  };
  for (const a of [total.sourceSupply, total.totalSupply, circulating.totalSupply, circulating.circulatingSupply]) check(a);
  checkWallets(total.burned);
  checkWallets(circulating.excluded);
  assert.equal(BigInt(total.totalSupply.baseUnits), BigInt(total.sourceSupply.baseUnits) - BigInt(total.burned.sum.baseUnits));
  assert.equal(BigInt(circulating.circulatingSupply.baseUnits), BigInt(circulating.totalSupply.baseUnits) - BigInt(circulating.excluded.sum.baseUnits));
  if (total.blockNumber === circulating.blockNumber) assert.equal(circulating.totalSupply.baseUnits, total.totalSupply.baseUnits);
}
