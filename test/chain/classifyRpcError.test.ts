import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyRpcError } from '../../src/chain/index.ts';

// Shapes as ethers v6 produces them from a JSON-RPC error answer.
const wrapped = (method: string, code: number, message: string) => ({
  code: method === 'eth_call' ? 'CALL_EXCEPTION' : 'UNKNOWN_ERROR',
  message: method === 'eth_call' ? 'missing revert data (action="call")' : 'could not coalesce error',
  info: { error: { code, message }, payload: { method } },
});

test('node errors are sorted into transient, range, revert and other', () => {
  assert.equal(classifyRpcError(wrapped('eth_getLogs', -32005, 'query returned more than 10000 results'), 'eth_getLogs'), 'range');
  assert.equal(classifyRpcError(wrapped('eth_getLogs', -32000, 'block range is too wide'), 'eth_getLogs'), 'range');
  assert.equal(classifyRpcError(wrapped('eth_blockNumber', -32005, 'limit exceeded'), 'eth_blockNumber'), 'transient');
  assert.equal(classifyRpcError({ code: 'TIMEOUT', message: 'timeout' }, 'eth_call'), 'transient');
  assert.equal(classifyRpcError({ code: 'SERVER_ERROR', message: 'server response 503', info: { responseStatus: '503 Service Unavailable' } }, 'eth_chainId'), 'transient');
  assert.equal(classifyRpcError({ message: 'connect ECONNREFUSED 127.0.0.1:1', code: 'ECONNREFUSED' }, 'eth_getLogs'), 'transient');
  assert.equal(classifyRpcError(wrapped('eth_call', 3, 'execution reverted'), 'eth_call'), 'revert');
  assert.equal(classifyRpcError(wrapped('eth_call', -32603, "VM Exception while processing transaction: reverted with reason string 'x'"), 'eth_call'), 'revert');
  assert.equal(classifyRpcError(wrapped('eth_call', -32000, 'missing trie node abc'), 'eth_call'), 'other');
  assert.equal(classifyRpcError(wrapped('eth_call', -32000, 'header not found'), 'eth_call'), 'transient');
  assert.equal(classifyRpcError(wrapped('eth_getBlockByNumber', -32602, 'invalid argument 0'), 'eth_getBlockByNumber'), 'other');
});
