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

export type StubMode = 'pass' | 'down' | 'http500' | 'hang';

export type StubNode = {
  url: string;
  /** HTTP requests received (the chain client sends one JSON-RPC call per request). */
  requests: number;
  methods: string[];
  mode: StubMode;
  /** Added before every answer in `pass` mode: a slow node, as slow as the test says. */
  delayMs: number;
  /** Reads every call answered so far again from the real chain, at its head now (after the test changed the chain). */
  learn(): Promise<void>;
  close(): Promise<void>;
};

type Call = { id: number; method: string; params: unknown[] };

/**
 * A stand-in node the test can slow down and break: it answers what the real chain at `target`
 * answered (each call asked of the chain the first time, then answered from memory, an eth_call
 * at whatever block the caller pins; learn() asks them all again), after `delayMs`; `down` resets
 * every connection, `http500` answers 500, `hang` never answers. Counts what reaches it. The
 * answers are the chain's; the time they take is the test's, not the machine's load.
 */
export async function startStubNode(target: string): Promise<StubNode> {
  const sockets = new Set<Socket>();
  const answers = new Map<string, { call: Call; result: unknown }>();
  const keyOf = (call: Call) => (call.method === 'eth_call' ? `eth_call ${JSON.stringify(call.params[0])}` : `${call.method} ${JSON.stringify(call.params)}`);
  const ask = async (call: Call, head?: string) => {
    const params = call.method === 'eth_call' && head ? [call.params[0], head] : call.params;
    const res = await fetch(target, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: call.id, method: call.method, params }) });
    const body = (await res.json()) as { result?: unknown; error?: unknown };
    if (body.error !== undefined) throw new Error(`the chain answered ${call.method} with ${JSON.stringify(body.error)}`);
    answers.set(keyOf(call), { call, result: body.result });
    return body.result;
  };
  const stub: StubNode = {
    url: '',
    requests: 0,
    methods: [],
    mode: 'pass',
    delayMs: 0,
    async learn() {
      const head = (await ask({ id: 0, method: 'eth_getBlockByNumber', params: ['latest', false] })) as { number: string };
      for (const { call } of [...answers.values()]) await ask(call, head.number);
    },
    close: async () => undefined,
  };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    stub.requests++;
    let call: Call;
    try {
      call = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call;
      stub.methods.push(call.method);
    } catch {
      stub.methods.push('?');
      return void res.writeHead(400).end();
    }
    if (stub.mode === 'down') return void req.socket.destroy();
    if (stub.mode === 'hang') return;
    if (stub.mode === 'http500') return void res.writeHead(500, { 'content-type': 'text/plain' }).end('node exploded');
    if (stub.delayMs > 0) await new Promise((r) => setTimeout(r, stub.delayMs));
    const known = answers.get(keyOf(call));
    const result = known ? known.result : await ask(call);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: call.id, result }));
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  stub.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return stub;
}
