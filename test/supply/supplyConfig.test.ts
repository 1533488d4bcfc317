import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { loadSupplyConfig, parseSupplyConfig, readSupplySettings } from '../../src/config/supplyConfig.ts';
import { ConfigError } from '../../src/errors/index.ts';
import { problemsOf } from '../helpers/configProblems.ts';

const dir = new URL('../../config/supply/', import.meta.url).pathname;
const TREASURY = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const ECOSYSTEM = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC';
const roles = { treasury: TREASURY, ecosystem: ECOSYSTEM };

describe('supply configuration files', () => {
  it('the demo config resolves its roles and uses the default burn addresses', () => {
    const config = loadSupplyConfig(join(dir, 'demo.json'), roles);
    assert.deepEqual(config.source, { kind: 'totalSupply', method: 'totalSupply()' });
    assert.equal(config.blockTag, 'latest');
    assert.deepEqual(config.burnAddresses.map((b) => b.address), ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD']);
    assert.deepEqual(config.excludedWallets, [
      { address: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', label: 'Treasury' },
      { address: ECOSYSTEM, label: 'Ecosystem fund' },
    ]);
  });

  it('the demo config without the deployment roles names each unresolved entry', () => {
    const problems = problemsOf(() => loadSupplyConfig(join(dir, 'demo.json')));
    assert.equal(problems.length, 2);
    assert.match(problems[0] ?? '', /demo\.json: excludedWallets\[0\]\.role: unknown role "treasury" \(no roles are defined/);
    assert.match(problems[1] ?? '', /excludedWallets\[1\]\.role: unknown role "ecosystem"/);
  });

  it('the Linea example reads the L1-synced supply', () => {
    const config = loadSupplyConfig(join(dir, 'linea.example.json'));
    assert.deepEqual(config.source, { kind: 'l1Synced', method: 'l1LineaTokenSupply()' });
    assert.equal(config.burnAddresses.length, 2);
  });

  it('both files validate against the published JSON schema', () => {
    const schema = JSON.parse(readFileSync(join(dir, 'supply-config.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    for (const file of ['demo.json', 'linea.example.json']) {
      assert.ok(validate(JSON.parse(readFileSync(join(dir, file), 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`);
    }
    assert.equal(validate({ source: { kind: 'l1Synced' } }), false);
    assert.equal(validate({ excludedWallets: [{ address: '0x12', label: 'x' }] }), false);
  });

  it('a missing file or bad JSON names the path', () => {
    assert.match(problemsOf(() => loadSupplyConfig('/nonexistent/supply.json'))[0] ?? '', /\/nonexistent\/supply\.json: cannot be read/);
    const file = join(mkdtempSync(join(tmpdir(), 'supply-')), 'broken.json');
    writeFileSync(file, '{"source": ');
    assert.match(problemsOf(() => loadSupplyConfig(file))[0] ?? '', /broken\.json: not valid JSON/);
  });
});

describe('supply configuration validation names each bad entry', () => {
  const wallet = { address: TREASURY, label: 'Treasury' };
  const cases: [string, unknown, RegExp][] = [
    ['not an object', [], /cfg: expected a JSON object/],
    ['an unknown key', { burnAdresses: [] }, /cfg: burnAdresses: unknown key/],
    ['an unknown source kind', { source: { kind: 'supply' } }, /source\.kind: expected "totalSupply" or "l1Synced", got "supply"/],
    ['a source that is not an object', { source: 'totalSupply' }, /source: expected an object/],
    ['an l1Synced source without method', { source: { kind: 'l1Synced' } }, /source\.method: expected the name of a view function/],
    ['a method with arguments', { source: { kind: 'l1Synced', method: 'supplyAt(uint256)' } }, /source\.method/],
    ['a totalSupply source with a method', { source: { kind: 'totalSupply', method: 'x' } }, /source\.method: only the l1Synced source/],
    ['an unknown source key', { source: { kind: 'totalSupply', from: 'L1' } }, /source\.from: unknown key/],
    ['a bad block tag', { blockTag: 'pending' }, /blockTag: expected latest, safe or finalized/],
    ['burnAddresses not a list', { burnAddresses: '0x0' }, /burnAddresses: expected an array/],
    ['an entry that is a bare string', { excludedWallets: [TREASURY] }, /excludedWallets\[0\]: expected an object/],
    ['a malformed address', { excludedWallets: [wallet, { address: '0x1234', label: 'Vesting' }] }, /excludedWallets\[1\]\.address: expected a 0x-prefixed 20-byte hex address, got "0x1234"/],
    ['a missing label', { excludedWallets: [{ address: TREASURY }] }, /excludedWallets\[0\]\.label: expected a non-empty string/],
    ['an empty label', { burnAddresses: [{ address: TREASURY, label: ' ' }] }, /burnAddresses\[0\]\.label: expected a non-empty string/],
    ['address and role together', { excludedWallets: [{ address: TREASURY, role: 'treasury', label: 'T' }] }, /excludedWallets\[0\]: give either "address" or "role", not both/],
    ['neither address nor role', { excludedWallets: [{ label: 'T' }] }, /excludedWallets\[0\]: expected "address" or "role"/],
    ['an unknown role', { excludedWallets: [{ role: 'vesting', label: 'V' }] }, /excludedWallets\[0\]\.role: unknown role "vesting" \(known: treasury, ecosystem\)/],
    ['an unknown entry key', { excludedWallets: [{ ...wallet, note: 'x' }] }, /excludedWallets\[0\]\.note: unknown key/],
    ['a wallet listed twice', { excludedWallets: [wallet, { address: TREASURY.toUpperCase().replace('0X', '0x'), label: 'Again' }] }, /excludedWallets\[1\]: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 is already listed as excludedWallets\[0\]/],
    ['a burn address also excluded', { excludedWallets: [{ address: '0x000000000000000000000000000000000000dead', label: 'Dead' }] }, /excludedWallets\[0\]: 0x000000000000000000000000000000000000dEaD is already listed as burnAddresses\[1\]/],
  ];
  for (const [name, json, expected] of cases) {
    it(name, () => {
      const problems = problemsOf(() => parseSupplyConfig(json, 'cfg', roles));
      assert.ok(problems.some((p) => expected.test(p)), `${JSON.stringify(problems)} does not match ${expected}`);
    });
  }

  it('reports every bad entry at once, each prefixed with the file', () => {
    const problems = problemsOf(() =>
      parseSupplyConfig({ blockTag: 'pending', excludedWallets: [{ address: 'nope', label: 'A' }, { role: 'x', label: '' }] }, 'linea.json', roles),
    );
    assert.equal(problems.length, 4, JSON.stringify(problems));
    assert.ok(problems.every((p) => p.startsWith('linea.json: ')));
    const error = new ConfigError(problems);
    assert.match(error.message, /excludedWallets\[0\]\.address/);
    assert.match(error.message, /excludedWallets\[1\]\.role/);
  });

  it('an empty object means the defaults', () => {
    const config = parseSupplyConfig({}, 'cfg');
    assert.equal(config.source.kind, 'totalSupply');
    assert.equal(config.burnAddresses.length, 2);
    assert.deepEqual(config.excludedWallets, []);
  });
});

describe('supply environment settings', () => {
  it('has defaults', () => {
    assert.deepEqual(readSupplySettings({}), { configPath: undefined, tokenAddress: undefined, cacheSeconds: 5, maxStaleSeconds: 300 });
  });

  it('reads and checksums every variable', () => {
    const settings = readSupplySettings({
      SUPPLY_CONFIG: 'config/supply/linea.json',
      NETWORK_TOKEN_ADDRESS: '0x1789e0043623282d5dcc7f213d703c6d8bafbb04',
      SUPPLY_CACHE_SECONDS: '10',
      SUPPLY_MAX_STALE_SECONDS: '600',
    });
    assert.deepEqual(settings, { configPath: 'config/supply/linea.json', tokenAddress: '0x1789e0043623282D5DCc7F213d703C6D8BAfBB04', cacheSeconds: 10, maxStaleSeconds: 600 });
  });

  it('names every bad variable', () => {
    const problems = problemsOf(() => readSupplySettings({ NETWORK_TOKEN_ADDRESS: '0x1789', SUPPLY_CACHE_SECONDS: 'five', SUPPLY_MAX_STALE_SECONDS: '-1' }));
    assert.equal(problems.length, 3);
    assert.match(problems.join('\n'), /NETWORK_TOKEN_ADDRESS="0x1789"/);
    assert.match(problems.join('\n'), /SUPPLY_CACHE_SECONDS="five"/);
    assert.match(problems.join('\n'), /SUPPLY_MAX_STALE_SECONDS="-1"/);
  });
});
