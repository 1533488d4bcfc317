// The problems a configuration loader reports: its ConfigError's list, or a failure when it does not throw one.
import assert from 'node:assert/strict';
import { ConfigError } from '../../src/errors/index.ts';

export function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
    return error.problems;
  }
  assert.fail('expected a ConfigError');
}
