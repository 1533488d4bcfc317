// The one rule that says what a node's refusal means, on the error objects and statuses real
// nodes and providers answer with.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CallRevertedError, classifyHttpStatus, classifyNodeError, HttpStatusError, JsonRpcResponseError, LogRangeTooLargeError, RateLimitedError,
} from '../../src/chain/index.ts';

const logs = [{ fromBlock: '0x0', toBlock: '0x3e8' }];
const call = [{ to: '0x00000000000000000000000000000000000000aa', data: '0x' }, 'latest'];

test('JSON-RPC errors: range, rate limit, revert, retryable and not', () => {
  const range = classifyNodeError('eth_getLogs', logs, { code: -32005, message: 'query returned more than 10000 results' });
  assert.ok(range instanceof LogRangeTooLargeError);
  assert.deepEqual([range.fromBlock, range.toBlock, range.suggestedToBlock, range.retryable], [0, 1000, null, false]);
  const suggested = classifyNodeError('eth_getLogs', logs, {
    code: -32602, message: 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range. Based on your parameters, this block range should work: [0x0, 0x1f3]',
  });
  assert.ok(suggested instanceof LogRangeTooLargeError);
  assert.equal(suggested.suggestedToBlock, 499);
  assert.ok(classifyNodeError('eth_getLogs', logs, { code: -32000, message: 'block range is too wide' }) instanceof LogRangeTooLargeError);
  for (const [method, nodeError] of [
    ['eth_blockNumber', { code: -32005, message: 'limit exceeded' }],
    ['eth_getLogs', { code: 429, message: 'Your app has exceeded its compute units per second capacity' }],
    ['eth_call', { code: -32000, message: 'project ID request rate exceeded' }],
  ] as const) {
    const error = classifyNodeError(method, method === 'eth_getLogs' ? logs : call, nodeError);
    assert.ok(error instanceof RateLimitedError, `${method} ${nodeError.message}: ${error.name}`);
    assert.equal(error.retryable, true);
    assert.equal(error.status, null);
    assert.deepEqual(error.nodeError, nodeError);
  }
  const reverted = classifyNodeError('eth_call', call, { code: 3, message: 'execution reverted', data: '0x08c379a0' });
  assert.ok(reverted instanceof CallRevertedError);
  assert.deepEqual([reverted.to, reverted.revertData, reverted.retryable], ['0x00000000000000000000000000000000000000aa', '0x08c379a0', false]);
  assert.ok(classifyNodeError('eth_call', call, { code: -32603, message: "VM Exception while processing transaction: reverted with reason string 'x'" }) instanceof CallRevertedError);
  const trie = classifyNodeError('eth_call', call, { code: -32000, message: 'missing trie node abc' });
  assert.ok(trie instanceof JsonRpcResponseError && !trie.retryable, 'a missing trie node is not a revert, and not retried');
  const behind = classifyNodeError('eth_call', call, { code: -32000, message: 'header not found' });
  assert.ok(behind instanceof JsonRpcResponseError && behind.retryable && behind.code === -32000);
  const invalid = classifyNodeError('eth_getBlockByNumber', ['0x1', false], { code: -32602, message: 'invalid argument 0' });
  assert.ok(invalid instanceof JsonRpcResponseError && !invalid.retryable);
});

test('HTTP statuses: 429 with its Retry-After, 5xx retryable, 4xx not, a range refusal in a 4xx body', () => {
  const limited = classifyHttpStatus('eth_chainId', [], 429, 'Too Many Requests', 1500);
  assert.ok(limited instanceof RateLimitedError);
  assert.deepEqual([limited.status, limited.retryAfterMs, limited.retryable, limited.details], [429, 1500, true, 'Too Many Requests']);
  for (const [status, retryable] of [[500, true], [502, true], [503, true], [408, true], [400, false], [401, false], [403, false], [404, false]] as const) {
    const error = classifyHttpStatus('eth_chainId', [], status, '', null);
    assert.ok(error instanceof HttpStatusError && error.status === status && error.retryable === retryable, `${status}`);
  }
  assert.ok(classifyHttpStatus('eth_getLogs', logs, 400, '{"error":{"code":-32602,"message":"block range too large"}}', null) instanceof LogRangeTooLargeError);
});
