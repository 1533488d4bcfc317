// The documents' demo figures, written from the demo itself: `npm start` at the end of its saved
// history (DEMO_CATCH_UP=false, DEMO_LIVE_TRADING=false), where every figure is reproducible,
// read over HTTP and rendered between the `demo-examples` markers of each document.
//   npm run docs:examples            rewrites the sections
//   npm run docs:examples -- --check exits 1 when a section differs from the demo (test/main/npmStart.test.ts checks the same)
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { indexerDefaults } from '../../src/config/indexerConfig.ts';
import { readNodeScript } from '../nodeScript.ts';

const root = resolve(import.meta.dirname, '..', '..');

/** What the examples read of a token (spec: Token). */
export type ExampleToken = {
  symbol: string;
  name: string;
  isSecure: boolean;
  security: { score: number; reasons: { code: string; impact: number }[] };
  info: { marketCap: number | null };
};

/** The demo tokens the security-score document walks through, and what each shows (the demo's design, src/demo/demoNetwork.ts). */
const SECURITY_CASES: [symbol: string, shows: string][] = [
  ['WETH', 'the wrapped native token, priced from its deepest stablecoin pool'],
  ['USDC', 'the basket\'s reference stablecoin, behind an upgradeable proxy (ZeppelinOS slots) whose owner can mint, pause and blacklist'],
  ['USDT', 'a listed stablecoin behind an EIP-1967 proxy with the same owner powers'],
  ['DAI', 'a listed stablecoin with a short depeg in its history'],
  ['LINEA', 'the network token, listed'],
  ['WBTC', 'a listed major'],
  ['lsETH', 'a listed major'],
  ['VELA', 'a dotted brand (`Vela.Finance`): no lure, not spam'],
  ['EMBR', 'listed and liquid, 70 % of its supply burned'],
  ['NEB', 'unlisted, deep and busy, a week old'],
  ['HRB', 'unlisted, deep and busy, a week old'],
  ['PCAT', 'unlisted, deep and busy, a week old'],
  ['NONAME', 'listed, never priced'],
  ['DUST', 'illiquid (a dust pool only): not spam'],
  ['CLAIM', 'an airdrop lure (`Visit claim-rewards.xyz`)'],
  ['HONEY', 'a honeypot: buys work, every sale into its pool reverts'],
  ['TAXY', '5 % fee on every transfer into or out of its pool'],
  ['UPGD', 'EIP-1967 proxy with an active owner and admin, unlisted'],
  ['MNTR', 'owner-only `mint(address,uint256)`, unlisted'],
];

const usd = (n: number) => Math.round(n).toLocaleString('en-US');
const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');

function whyNotSecure(t: ExampleToken): string {
  if (t.isSecure) return 'yes';
  const why = [];
  if (t.security.score <= indexerDefaults.secureScoreMin) why.push(`score ≤ ${indexerDefaults.secureScoreMin}`);
  if (t.info.marketCap === null || t.info.marketCap <= Number(indexerDefaults.secureMarketCapMinUsd)) why.push(`market cap ${t.info.marketCap === null ? 'unknown' : `≤ ${usd(Number(indexerDefaults.secureMarketCapMinUsd))}`}`);
  return `**no**: ${why.join(', ')}`;
}

/** The worked-examples table of docs/security-score.md. */
export function renderSecurityExamples(tokens: readonly ExampleToken[]): string {
  const bySymbol = new Map(tokens.map((t) => [t.symbol, t]));
  const rows = SECURITY_CASES.map(([symbol, shows]) => {
    const t = bySymbol.get(symbol);
    if (!t) throw new Error(`the demo serves no ${symbol}`);
    const reasons = t.security.reasons.map((r) => `${r.code} ${signed(r.impact)}`).join(', ');
    const cap = t.info.marketCap === null ? 'null' : usd(t.info.marketCap);
    return `| ${symbol} | ${shows} | ${t.security.score} | ${reasons} | ${cap} | ${whyNotSecure(t)} |`;
  });
  return ['| token | what it shows | score | reasons | marketCap (USD) | isSecure |', '| --- | --- | --- | --- | --- | --- |', ...rows].join('\n');
}

/** The generated sections of each document, by file. */
export function renderDocuments(tokens: readonly ExampleToken[]): Map<string, string> {
  return new Map([['docs/security-score.md', renderSecurityExamples(tokens)]]);
}

const BEGIN = '<!-- demo-examples: written by `npm run docs:examples` from the demo at the end of its saved history; do not edit -->';
const END = '<!-- /demo-examples -->';

/** `doc` with its generated section replaced by `body`. */
export function withSection(doc: string, body: string, file: string): string {
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${file} has no demo-examples section`);
  return `${doc.slice(0, from + BEGIN.length)}\n${body}\n${doc.slice(to)}`;
}

/** The documents whose sections differ from what the demo gives (empty: all current). */
export function staleDocuments(tokens: readonly ExampleToken[], repo = root): string[] {
  return [...renderDocuments(tokens)].filter(([file, body]) => {
    const doc = readFileSync(join(repo, file), 'utf8');
    return withSection(doc, body, file) !== doc;
  }).map(([file]) => file);
}

/** `npm start` at the end of the demo's saved history; resolves with its URL and a stop function. */
async function startDemoAtHistoryEnd(): Promise<{ url: string; stop: () => void }> {
  const script = readNodeScript(root, 'start');
  for (const args of script.prepare) {
    const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} failed`);
  }
  const child = spawn(process.execPath, [...script.flags, script.entry, ...script.args], {
    cwd: root,
    env: { ...process.env, ...script.env, PORT: '0', HOST: '127.0.0.1', DEMO_CHAIN_PORT: '0', DEMO_LIVE_TRADING: 'false', DEMO_CATCH_UP: 'false', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolveUrl, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      const line = text.split('\n').find((l) => l.includes('"token API ready"'));
      if (line) resolveUrl((JSON.parse(line) as { url: string }).url);
    });
    child.on('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready`)));
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

async function main(check: boolean): Promise<void> {
  const demo = await startDemoAtHistoryEnd();
  try {
    const tokens = ((await (await fetch(`${demo.url}/tokens?limit=100`)).json()) as { data: ExampleToken[] }).data;
    const stale = staleDocuments(tokens);
    if (check) {
      if (stale.length > 0) throw new Error(`${stale.join(', ')}: the demo figures differ; run npm run docs:examples`);
      console.log('the documents\' demo figures are the demo\'s');
      return;
    }
    for (const [file, body] of renderDocuments(tokens)) writeFileSync(join(root, file), withSection(readFileSync(join(root, file), 'utf8'), body, file));
    console.log(stale.length > 0 ? `rewrote ${stale.join(', ')}` : 'already current');
  } finally {
    demo.stop();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main(process.argv.includes('--check')).catch((error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  });
}
