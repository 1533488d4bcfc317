// Every node-failure class keeps the fields it is built with, in the viem shape: shortMessage,
// details, cause, walk(); and says whether a retry may pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  CallRevertedError, ChainError, HttpStatusError, InvalidResponseError, JsonRpcResponseError, LogRangeTooLargeError,
  NodeUnreachableError, RateLimitedError, RpcTimeoutError,
} from '../../src/chain/index.ts';
import { BaseError } from '../../src/errors/index.ts';

test('each error class round-trips its fields', () => {
  const socket = Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:8545'), { code: 'ECONNREFUSED' });
  const nodeError = { code: -32000, message: 'header not found', data: { hint: 'x' } };
  const cases: [ChainError, Record<string, unknown>][] = [
    [new RpcTimeoutError('eth_call', 300), { name: 'RpcTimeoutError', method: 'eth_call', timeoutMs: 300, retryable: true, shortMessage: 'upstream node did not answer eth_call within 300 ms' }],
    [new NodeUnreachableError('eth_chainId', 'ECONNREFUSED', { cause: socket }), { name: 'NodeUnreachableError', code: 'ECONNREFUSED', retryable: true, cause: socket, shortMessage: 'upstream node unreachable (ECONNREFUSED)' }],
    [new HttpStatusError('eth_chainId', 503, { retryable: true, details: 'busy' }), { name: 'HttpStatusError', status: 503, retryable: true, details: 'busy', shortMessage: 'upstream node answered HTTP 503' }],
    [new RateLimitedError('eth_getLogs', 429, 2000, { details: 'slow down' }), { name: 'RateLimitedError', status: 429, retryAfterMs: 2000, retryable: true, details: 'slow down' }],
    [new RateLimitedError('eth_call', null, null, { nodeError }), { status: null, retryAfterMs: null, nodeError }],
    [new InvalidResponseError('eth_chainId', 'body is not JSON'), { name: 'InvalidResponseError', retryable: false, shortMessage: 'upstream node sent an invalid JSON-RPC response: body is not JSON' }],
    [new JsonRpcResponseError('eth_call', nodeError, { retryable: true }), { name: 'JsonRpcResponseError', code: -32000, nodeError, retryable: true }],
    [new LogRangeTooLargeError(10, 20, 15, { nodeError }), { name: 'LogRangeTooLargeError', method: 'eth_getLogs', fromBlock: 10, toBlock: 20, suggestedToBlock: 15, retryable: false }],
    [new CallRevertedError('0xab', '0x08c379a0', { nodeError }), { name: 'CallRevertedError', method: 'eth_call', to: '0xab', revertData: '0x08c379a0', retryable: false }],
  ];
  for (const [error, fields] of cases) {
    assert.ok(error instanceof ChainError && error instanceof BaseError && error instanceof Error, error.name);
    for (const [key, value] of Object.entries(fields)) assert.deepEqual((error as unknown as Record<string, unknown>)[key], value, `${error.name}.${key}`);
    assert.equal(error.message, error.details ? `${error.shortMessage}\n\nDetails: ${error.details}` : error.shortMessage);
  }
});

test('walk() finds an error along the cause chain, or the deepest cause', () => {
  const root = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  const unreachable = new NodeUnreachableError('eth_call', 'ECONNRESET', { cause: root });
  const outer = new ChainError('indexing block 5 failed', { cause: unreachable });
  assert.equal(outer.walk(), root);
  assert.equal(outer.walk((e) => e instanceof NodeUnreachableError), unreachable);
  assert.equal(outer.walk((e) => e instanceof RateLimitedError), null);
  const alone = new RpcTimeoutError('eth_call', 1);
  assert.equal(alone.walk(), alone, 'an error without a cause is its own deepest');
});
