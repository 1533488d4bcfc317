// The contract checks' settings: defaults, values read from the environment, and bounds refused by name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { indexerDefaults, loadIndexerConfig } from '../../src/config/indexerConfig.ts';
import { problemsOf } from '../helpers/configProblems.ts';

describe('contract check settings', () => {
  it('defaults: 52 calls a step, every 6 h of chain time, 15 s a step', () => {
    const c = loadIndexerConfig({});
    assert.deepEqual([c.contractCheckMaxCalls, c.contractCheckIntervalMs, c.contractCheckTimeoutMs], [52, 21_600_000, 15_000]);
    assert.equal(indexerDefaults.contractCheckMaxCalls, 52);
  });
  it('reads the environment; 0 calls turns the checks off', () => {
    const c = loadIndexerConfig({ INDEXER_CONTRACT_CHECK_MAX_CALLS: '0', INDEXER_CONTRACT_CHECK_INTERVAL_MS: '3600000', INDEXER_CONTRACT_CHECK_TIMEOUT_MS: '500' });
    assert.deepEqual([c.contractCheckMaxCalls, c.contractCheckIntervalMs, c.contractCheckTimeoutMs], [0, 3_600_000, 500]);
  });
  it('refuses values out of bounds, naming the variable', () => {
    const problems = problemsOf(() => loadIndexerConfig({ INDEXER_CONTRACT_CHECK_MAX_CALLS: '-1', INDEXER_CONTRACT_CHECK_TIMEOUT_MS: '10' })).join('\n');
    assert.match(problems, /INDEXER_CONTRACT_CHECK_MAX_CALLS="-1"/);
    assert.match(problems, /INDEXER_CONTRACT_CHECK_TIMEOUT_MS="10"/);
  });
});
