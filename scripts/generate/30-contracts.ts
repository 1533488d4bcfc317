// Compiles contracts/**/*.sol offline with solc-js and writes generated/contracts/<Name>.json.
// Output must be byte-identical run to run: fixed compiler settings, no metadata hash, sorted keys.
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const contractsDir = join(root, 'contracts');
const outDir = join(root, 'generated', 'contracts');
import { CONTRACT_NAMES } from '../../src/chain/contracts.ts';

const require = createRequire(import.meta.url);

// paris = no PUSH0, so the bytecode also runs on chains that lag behind Shanghai.
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'paris',
  metadata: { bytecodeHash: 'none', appendCBOR: false },
  outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
} as const;

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }>>;
}

export interface CompiledContract {
  contractName: string;
  sourceName: string;
  abi: unknown[];
  bytecode: string;
  deployedBytecode: string;
}

function listSources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listSources(join(dir, e.name)) : e.name.endsWith('.sol') ? [join(dir, e.name)] : []))
    .sort();
}

/** Compiles every source; returns deployable contracts (abstract ones and interfaces are dropped) sorted by name. */
export function compileContracts(): CompiledContract[] {
  const solc = require('solc') as { compile(input: string, cb?: { import: (p: string) => { contents?: string; error?: string } }): string };
  const sources: Record<string, { content: string }> = {};
  for (const file of listSources(contractsDir)) {
    sources[relative(root, file).split(sep).join('/')] = { content: readFileSync(file, 'utf8') };
  }
  const input = { language: 'Solidity', sources, settings: COMPILER_SETTINGS };
  // Imports outside contracts/ (e.g. packages) resolve from node_modules; nothing is downloaded.
  const findImports = (path: string) => {
    try {
      return { contents: readFileSync(require.resolve(path), 'utf8') };
    } catch {
      return { error: `not found: ${path}` };
    }
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const compiled: CompiledContract[] = [];
  for (const [sourceName, contracts] of Object.entries(output.contracts ?? {})) {
    for (const [contractName, c] of Object.entries(contracts)) {
      if (c.evm.bytecode.object === '') continue;
      if (compiled.some((x) => x.contractName === contractName)) throw new Error(`duplicate contract name ${contractName}`);
      compiled.push({
        contractName,
        sourceName,
        abi: c.abi,
        bytecode: `0x${c.evm.bytecode.object}`,
        deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
      });
    }
  }
  return compiled.sort((a, b) => (a.contractName < b.contractName ? -1 : 1));
}

/** JSON with recursively sorted object keys, so output never depends on insertion order. */
export function stableJson(value: unknown): string {
  const sortKeys = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sortKeys)
      : v !== null && typeof v === 'object'
        ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]))
        : v;
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

export default async function generateContracts(): Promise<void> {
  const compiled = compileContracts();
  // What test/demo/generate.test.ts checked before it moved here (`npm run check:generated` and
  // .ci/run then prove generated/contracts equals this compilation byte for byte): the contracts
  // compiled are the ones src/chain/contracts.ts types, each with 0x-hex creation code.
  const names = compiled.map((c) => c.contractName);
  if (JSON.stringify(names) !== JSON.stringify([...CONTRACT_NAMES])) {
    throw new Error(`contracts compiled (${names.join(', ')}) differ from CONTRACT_NAMES in src/chain/contracts.ts (${CONTRACT_NAMES.join(', ')})`);
  }
  for (const c of compiled) if (!/^0x[0-9a-f]+$/.test(c.bytecode)) throw new Error(`${c.contractName}: creation code is not 0x-hex`);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  for (const c of compiled) writeFileSync(join(outDir, `${c.contractName}.json`), stableJson(c));
  const solcVersion = (require('solc/package.json') as { version: string }).version;
  const index = { solcVersion, settings: COMPILER_SETTINGS, contracts: compiled.map((c) => c.contractName) };
  writeFileSync(join(outDir, 'index.json'), stableJson(index));
}
