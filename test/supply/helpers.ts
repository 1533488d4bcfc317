// Shared set-up of the supply suites: a demo chain with the demo world deployed, an app whose
// supply service reads it (optionally through a proxy the test controls), and a raw-body check
// against the spec's text/plain schema (the validator only checks JSON bodies).
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { parse } from 'yaml';
import { createChainClient } from '../../src/chain/createChainClient.ts';
import { loadSupplyConfig, type SupplyConfig } from '../../src/config/supplyConfig.ts';
import { createSupplyService, type SupplyServiceOptions } from '../../src/readModel/supply/createSupplyService.ts';
import { openapiSpecPath } from '../../src/spec/specPaths.ts';
import { type Database } from '../../src/db/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { startDemoChain, type DemoChain } from '../../src/demo/chain.ts';
import { createDemoClient, type DemoClient } from '../../src/demo/client.ts';
import { deployDemo, type DemoDeployment } from '../../src/demo/deploy.ts';
import { silentLogger, testApp } from '../helpers/testApp.ts';

export const DEMO_CONFIG = new URL('../../config/supply/demo.json', import.meta.url).pathname;
export const DEAD = '0x000000000000000000000000000000000000dEaD';
export const E18 = 10n ** 18n;

export type SupplyWorld = {
  chain: DemoChain;
  deployment: DemoDeployment;
  client: DemoClient;
  db: Database;
  config: SupplyConfig;
  stop(): Promise<void>;
};

export async function startSupplyWorld(): Promise<SupplyWorld> {
  const chain = await startDemoChain();
  const deployment = await deployDemo(chain);
  const client = await createDemoClient(chain);
  const db = await openPglite();
  const { treasury, ecosystem } = deployment.networkToken;
  const config = loadSupplyConfig(DEMO_CONFIG, { treasury, ecosystem });
  return {
    chain,
    deployment,
    client,
    db,
    config,
    async stop() {
      await db.close();
      await chain.stop();
    },
  };
}

/** The app with a supply service reading `url` (the chain itself or a proxy in front of it). */
export function supplyApp(world: SupplyWorld, options: Partial<SupplyServiceOptions> & { url?: string } = {}) {
  const chain = createChainClient({ url: options.url ?? world.chain.url, maxRetries: 0, timeoutMs: 2000 });
  const supply = createSupplyService({
    chain,
    tokenAddress: world.deployment.networkToken.address,
    config: world.config,
    logger: silentLogger,
    ...options,
  });
  return { app: testApp(world.db, { supply }), supply, chain };
}

/** Mines queued transactions and checks they succeeded. */
export async function send(world: SupplyWorld, from: string, to: string, fn: string, args: unknown[]): Promise<void> {
  await world.client.send(from, to, 'NetworkToken', fn, args, { gas: 200_000n });
  await world.client.mine();
}

export async function balanceOf(world: SupplyWorld, token: string, holder: string): Promise<bigint> {
  const [value] = await world.client.call(token, 'DemoToken', 'balanceOf', [holder]);
  return value as bigint;
}

export async function totalSupplyOf(world: SupplyWorld, token: string): Promise<bigint> {
  const [value] = await world.client.call(token, 'DemoToken', 'totalSupply', []);
  return value as bigint;
}

const spec = parse(readFileSync(openapiSpecPath, 'utf8')) as { components: { schemas: Record<string, object> } };
const tokenUnits = new Ajv2020({ strict: false }).compile(spec.components.schemas.TokenUnits as object);

/** A text/plain body as the spec states it (TokenUnits). */
export function isSpecTokenUnits(body: string): boolean {
  return tokenUnits(body) === true;
}

export type ProxyMode = 'pass' | 'down' | 'http500' | 'hang';

export type RpcProxy = {
  url: string;
  /** HTTP requests received (the chain client sends one JSON-RPC call per request). */
  requests: number;
  methods: string[];
  mode: ProxyMode;
  /** Added before forwarding in `pass` mode: a slow node. */
  delayMs: number;
  close(): Promise<void>;
};

/**
 * A JSON-RPC pass-through the test can break: `down` resets every connection, `http500`
 * answers 500, `hang` never answers. Counts what reaches it.
 */
export async function startRpcProxy(target: string): Promise<RpcProxy> {
  const sockets = new Set<Socket>();
  const proxy: RpcProxy = { url: '', requests: 0, methods: [], mode: 'pass', delayMs: 0, close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    proxy.requests++;
    try {
      proxy.methods.push((JSON.parse(body) as { method: string }).method);
    } catch {
      proxy.methods.push('?');
    }
    if (proxy.mode === 'down') return void req.socket.destroy();
    if (proxy.mode === 'hang') return;
    if (proxy.mode === 'http500') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('node exploded');
    if (proxy.delayMs > 0) await new Promise((r) => setTimeout(r, proxy.delayMs));
    const upstream = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.writeHead(upstream.status, { 'content-type': 'application/json' }).end(await upstream.text());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return proxy;
}
