// The network token's supply configuration: which supply to read, which addresses count as
// burned, which wallets are excluded from the circulating supply. Loaded once at start-up;
// every bad entry is reported at once so an operator fixes the file in one go.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getAddress, isAddress } from 'ethers';
import { ConfigError } from '../errors/index.ts';
import { EnvReader, type Env } from './readEnv.ts';

export type SupplySource = { kind: 'totalSupply'; method: 'totalSupply()' } | { kind: 'l1Synced'; method: string };
export type SupplyBlockTag = 'latest' | 'safe' | 'finalized';
export type LabelledAddress = { address: string; label: string };

export type SupplyConfig = {
  source: SupplySource;
  /** Checksummed; their balances are subtracted from the source supply. */
  burnAddresses: LabelledAddress[];
  /** Checksummed; their balances are subtracted from the total supply after burn. */
  excludedWallets: LabelledAddress[];
  /** Which block the figures are pinned to. */
  blockTag: SupplyBlockTag;
};

/** Addresses the config may name by role (e.g. from the demo deployment) instead of literally. */
export type SupplyRoles = Readonly<Record<string, string>>;

export const DEFAULT_BURN_ADDRESSES: readonly LabelledAddress[] = [
  { address: '0x0000000000000000000000000000000000000000', label: 'Zero address' },
  { address: '0x000000000000000000000000000000000000dEaD', label: 'Dead address' },
];

/** The checked-in configuration of the embedded demo network. */
export const DEMO_SUPPLY_CONFIG_PATH = fileURLToPath(new URL('../../config/supply/demo.json', import.meta.url));

export type SupplySettings = {
  /** Path of the supply configuration file; undefined means the demo one on the demo network. */
  configPath: string | undefined;
  /** The network token; undefined means "take it from the demo deployment". */
  tokenAddress: string | undefined;
  cacheSeconds: number;
  maxStaleSeconds: number;
};

/** SUPPLY_CONFIG, NETWORK_TOKEN_ADDRESS, SUPPLY_CACHE_SECONDS, SUPPLY_MAX_STALE_SECONDS. */
export function readSupplySettings(env: Env): SupplySettings {
  const read = new EnvReader(env);
  const rawToken = read.string('NETWORK_TOKEN_ADDRESS');
  let tokenAddress: string | undefined;
  if (rawToken !== undefined) {
    if (isAddress(rawToken.toLowerCase())) tokenAddress = getAddress(rawToken.toLowerCase());
    else read.problems.push(`NETWORK_TOKEN_ADDRESS=${JSON.stringify(rawToken)}: expected a 0x-prefixed 20-byte hex address`);
  }
  const settings: SupplySettings = {
    configPath: read.string('SUPPLY_CONFIG'),
    tokenAddress,
    cacheSeconds: read.integer('SUPPLY_CACHE_SECONDS', 5, 0, 3600),
    maxStaleSeconds: read.integer('SUPPLY_MAX_STALE_SECONDS', 300, 0, 7 * 86_400),
  };
  if (read.problems.length > 0) throw new ConfigError(read.problems);
  return settings;
}

/** Reads and validates a supply configuration file; throws one ConfigError naming every bad entry. */
export function loadSupplyConfig(path: string, roles: SupplyRoles = {}): SupplyConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`SUPPLY_CONFIG ${path}: cannot be read (${(error as Error).message})`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError([`SUPPLY_CONFIG ${path}: not valid JSON (${(error as Error).message})`]);
  }
  return parseSupplyConfig(json, path, roles);
}

const KEYS = new Set(['$schema', 'description', 'source', 'burnAddresses', 'excludedWallets', 'blockTag']);
const METHOD = /^[A-Za-z_$][A-Za-z0-9_$]*(\(\))?$/;

/** Validates an already parsed configuration; `where` prefixes every problem (the file path). */
export function parseSupplyConfig(json: unknown, where: string, roles: SupplyRoles = {}): SupplyConfig {
  const problems: string[] = [];
  const fail = (entry: string, message: string) => problems.push(`${where}: ${entry}: ${message}`);
  if (!isObject(json)) throw new ConfigError([`${where}: expected a JSON object`]);
  for (const key of Object.keys(json)) if (!KEYS.has(key)) fail(key, 'unknown key');

  const source = parseSource(json.source, fail);
  const blockTag = json.blockTag ?? 'latest';
  if (blockTag !== 'latest' && blockTag !== 'safe' && blockTag !== 'finalized') fail('blockTag', 'expected latest, safe or finalized');

  const burnAddresses =
    json.burnAddresses === undefined ? DEFAULT_BURN_ADDRESSES.map((b) => ({ ...b })) : parseList(json.burnAddresses, 'burnAddresses', roles, fail);
  const excludedWallets = json.excludedWallets === undefined ? [] : parseList(json.excludedWallets, 'excludedWallets', roles, fail);

  // An address in both lists, or twice in one, would be subtracted twice.
  const seen = new Map<string, string>();
  const check = (list: LabelledAddress[], name: string) =>
    list.forEach((entry, i) => {
      const key = entry.address.toLowerCase();
      const first = seen.get(key);
      if (first) fail(`${name}[${i}]`, `${entry.address} is already listed as ${first}`);
      else seen.set(key, `${name}[${i}]`);
    });
  check(burnAddresses, 'burnAddresses');
  check(excludedWallets, 'excludedWallets');

  if (problems.length > 0) throw new ConfigError(problems);
  return { source: source as SupplySource, burnAddresses, excludedWallets, blockTag: blockTag as SupplyBlockTag };
}

export type Fail = (entry: string, message: string) => void;

function parseSource(raw: unknown, fail: Fail): SupplySource | undefined {
  if (raw === undefined) return { kind: 'totalSupply', method: 'totalSupply()' };
  if (!isObject(raw)) {
    fail('source', 'expected an object like {"kind": "totalSupply"} or {"kind": "l1Synced", "method": "l1TotalSupply"}');
    return undefined;
  }
  for (const key of Object.keys(raw)) if (key !== 'kind' && key !== 'method') fail(`source.${key}`, 'unknown key');
  if (raw.kind === 'totalSupply') {
    if (raw.method !== undefined) fail('source.method', 'only the l1Synced source takes a method');
    return { kind: 'totalSupply', method: 'totalSupply()' };
  }
  if (raw.kind === 'l1Synced') {
    if (typeof raw.method !== 'string' || !METHOD.test(raw.method)) {
      fail('source.method', 'expected the name of a view function without arguments, e.g. "l1LineaTokenSupply"');
      return undefined;
    }
    return { kind: 'l1Synced', method: raw.method.endsWith('()') ? raw.method : `${raw.method}()` };
  }
  fail('source.kind', `expected "totalSupply" or "l1Synced", got ${JSON.stringify(raw.kind)}`);
  return undefined;
}

// Each entry is {address, label} or {role, label}; a role is looked up in `roles`.
export function parseList(raw: unknown, name: string, roles: SupplyRoles, fail: Fail): LabelledAddress[] {
  if (!Array.isArray(raw)) {
    fail(name, 'expected an array of {"address" or "role", "label"} objects');
    return [];
  }
  const out: LabelledAddress[] = [];
  raw.forEach((item: unknown, i) => {
    const entry = `${name}[${i}]`;
    if (!isObject(item)) return fail(entry, 'expected an object with "address" or "role", and "label"');
    for (const key of Object.keys(item)) if (!['address', 'role', 'label'].includes(key)) fail(`${entry}.${key}`, 'unknown key');
    const label = item.label;
    const labelOk = typeof label === 'string' && label.trim() !== '';
    if (!labelOk) fail(`${entry}.label`, 'expected a non-empty string');
    let address: string | undefined;
    if (item.address !== undefined && item.role !== undefined) fail(entry, 'give either "address" or "role", not both');
    else if (item.address !== undefined) {
      if (typeof item.address === 'string' && /^0x[0-9a-fA-F]{40}$/.test(item.address)) address = getAddress(item.address.toLowerCase());
      else fail(`${entry}.address`, `expected a 0x-prefixed 20-byte hex address, got ${JSON.stringify(item.address)}`);
    } else if (item.role !== undefined) {
      const known = Object.keys(roles);
      const resolved = typeof item.role === 'string' && Object.hasOwn(roles, item.role) ? roles[item.role] : undefined;
      if (resolved === undefined)
        fail(`${entry}.role`, `unknown role ${JSON.stringify(item.role)} (${known.length ? `known: ${known.join(', ')}` : 'no roles are defined on this network'})`);
      else if (!isAddress(resolved.toLowerCase())) fail(`${entry}.role`, `role ${JSON.stringify(item.role)} resolves to ${JSON.stringify(resolved)}, not an address`);
      else address = getAddress(resolved.toLowerCase());
    } else fail(entry, 'expected "address" or "role"');
    if (address && labelOk) out.push({ address, label: (label as string).trim() });
  });
  return out;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
