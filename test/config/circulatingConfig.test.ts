// The circulating-supply configuration files: the checked-in ones load and match their JSON
// schema, defaults apply, and every bad entry is named by position.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { circulatingConfigPathOf, loadCirculatingConfig, parseCirculatingConfig } from '../../src/config/circulatingConfig.ts';
import { loadIndexerConfig } from '../../src/config/indexerConfig.ts';
import { problemsOf } from '../helpers/configProblems.ts';

const dir = new URL('../../config/circulating/', import.meta.url).pathname;
const HRB = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const TREASURY = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const LINEA = '0x1789e0043623282D5DCc7F213d703C6D8BAfBB04';
const roles = { HRB, treasury: TREASURY };

describe('circulating supply configuration', () => {
  it('the demo file resolves its token and wallet roles', () => {
    const config = loadCirculatingConfig(join(dir, 'demo.json'), { roles });
    assert.deepEqual(config.burnAddresses.map((b) => b.label), ['Zero address', 'Dead address']);
    assert.deepEqual(config.tokens, [{ address: HRB, label: 'Harbor DAO', excludedWallets: [{ address: TREASURY, label: 'Harbor DAO treasury' }] }]);
  });

  it('the Linea file lists no token and is the default of the linea preset', () => {
    assert.deepEqual(loadCirculatingConfig(join(dir, 'linea.json')).tokens, []);
    assert.equal(circulatingConfigPathOf('linea'), join(dir, 'linea.json'));
    assert.equal(circulatingConfigPathOf('custom'), null);
    assert.equal(circulatingConfigPathOf('../supply/demo'), null);
    assert.equal(loadIndexerConfig({ INDEXER_NETWORK: 'linea' }).circulatingConfig, join(dir, 'linea.json'));
    assert.equal(loadIndexerConfig({ INDEXER_NETWORK: 'linea', INDEXER_CIRCULATING_CONFIG: 'none' }).circulatingConfig, null);
  });

  it('refresh interval and call bound: defaults and limits', () => {
    const d = loadIndexerConfig({});
    assert.equal(d.circulatingRefreshMs, 600_000);
    assert.equal(d.circulatingMaxCalls, 1000);
    const set = loadIndexerConfig({ INDEXER_CIRCULATING_REFRESH_MS: '0', INDEXER_CIRCULATING_MAX_CALLS: '50' });
    assert.equal(set.circulatingRefreshMs, 0);
    assert.equal(set.circulatingMaxCalls, 50);
    const problems = problemsOf(() => loadIndexerConfig({ INDEXER_CIRCULATING_REFRESH_MS: '-1', INDEXER_CIRCULATING_MAX_CALLS: '5' }));
    assert.match(problems.join('\n'), /INDEXER_CIRCULATING_REFRESH_MS="-1"/);
    assert.match(problems.join('\n'), /INDEXER_CIRCULATING_MAX_CALLS="5"/);
  });

  it('both files validate against the published JSON schema, which refuses what the loader refuses', () => {
    const schema = JSON.parse(readFileSync(join(dir, 'circulating-config.schema.json'), 'utf8'));
    const validate = new Ajv2020({ strict: false }).compile(schema);
    for (const file of ['demo.json', 'linea.json']) {
      assert.ok(validate(JSON.parse(readFileSync(join(dir, file), 'utf8'))), `${file}: ${JSON.stringify(validate.errors)}`);
    }
    assert.equal(validate({ tokens: [{ address: HRB, label: 'x', excludedWallets: [] }] }), false);
    assert.equal(validate({ tokens: [{ address: HRB, label: 'x' }] }), false);
    assert.equal(validate({ tokens: [{ address: '0x12', label: 'x', excludedWallets: [{ address: TREASURY, label: 'T' }] }] }), false);
  });

  it('without burnAddresses the zero and dead addresses apply', () => {
    const config = parseCirculatingConfig({}, 'inline');
    assert.deepEqual(config.burnAddresses.map((b) => b.address), ['0x0000000000000000000000000000000000000000', '0x000000000000000000000000000000000000dEaD']);
    assert.deepEqual(config.tokens, []);
  });

  const wallet = { address: TREASURY, label: 'Treasury' };
  const cases: [string, unknown, RegExp][] = [
    ['an unknown top-level key', { token: [] }, /inline: token: unknown key/],
    ['tokens not an array', { tokens: {} }, /inline: tokens: expected an array/],
    ['a token without wallets', { tokens: [{ address: HRB, label: 'HRB' }] }, /tokens\[0\]\.excludedWallets: expected a non-empty array/],
    ['a malformed token address', { tokens: [{ address: '0x12', label: 'HRB', excludedWallets: [wallet] }] }, /tokens\[0\]\.address: expected a 0x-prefixed 20-byte hex address/],
    ['an unknown token role', { tokens: [{ role: 'NOPE', label: 'x', excludedWallets: [wallet] }] }, /tokens\[0\]\.role: unknown role "NOPE" \(known: HRB, treasury\)/],
    ['an unknown token key', { tokens: [{ address: HRB, label: 'HRB', excludedWallets: [wallet], note: 1 }] }, /tokens\[0\]\.note: unknown key/],
    ['a token listed twice', { tokens: [{ address: HRB, label: 'a', excludedWallets: [wallet] }, { role: 'HRB', label: 'b', excludedWallets: [wallet] }] }, /tokens\[1\]: 0x5FbDB2315678afecb367f032d93F642f64180aa3 is already listed as tokens\[0\]/],
    ['the token excluding itself', { tokens: [{ address: HRB, label: 'a', excludedWallets: [{ address: HRB, label: 'self' }] }] }, /tokens\[0\]\.excludedWallets\[0\]: the token contract itself is always excluded/],
    ['a burn address as a wallet', { tokens: [{ address: HRB, label: 'a', excludedWallets: [{ address: '0x000000000000000000000000000000000000dead', label: 'Dead' }] }] }, /tokens\[0\]\.excludedWallets\[0\]: 0x000000000000000000000000000000000000dEaD is already listed as burnAddresses\[1\]/],
    ['a wallet twice', { tokens: [{ address: HRB, label: 'a', excludedWallets: [wallet, { role: 'treasury', label: 'again' }] }] }, /excludedWallets\[1\]: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8 is already listed as tokens\[0\]\.excludedWallets\[0\]/],
    ['a wallet without label', { tokens: [{ address: HRB, label: 'a', excludedWallets: [{ address: TREASURY }] }] }, /tokens\[0\]\.excludedWallets\[0\]\.label: expected a non-empty string/],
    ['the network token', { tokens: [{ address: LINEA, label: 'LINEA', excludedWallets: [wallet] }] }, /tokens\[0\]: 0x1789e0043623282D5DCc7F213d703C6D8BAfBB04 is the network token: its excluded wallets are those of the supply configuration/],
  ];
  for (const [name, json, expected] of cases) {
    it(`refuses ${name}`, () => {
      const problems = problemsOf(() => parseCirculatingConfig(json, 'inline', { roles, networkToken: LINEA.toLowerCase() }));
      assert.ok(problems.some((p) => expected.test(p)), `${problems.join('\n')} does not match ${expected}`);
    });
  }

  it('names every problem of a file at once', () => {
    const problems = problemsOf(() =>
      parseCirculatingConfig({ burnAddresses: [{ address: 'x', label: 'X' }], tokens: [{ role: 'NOPE', label: '', excludedWallets: [{ address: '0x1', label: 'a' }] }] }, 'f.json', { roles }),
    );
    assert.ok(problems.length >= 4, problems.join('\n'));
    assert.ok(problems.every((p) => p.startsWith('f.json: ')));
  });
});
