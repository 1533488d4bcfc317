// name()/symbol() as stored: control characters dropped, at most 200 UTF-16 units, and a cut never
// leaves half a surrogate pair (jsonb, where reasons quote a name, refuses an unpaired one).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AbiCoder } from 'ethers';
import { decodeString } from '../../src/chain/index.ts';

const asString = (s: string) => AbiCoder.defaultAbiCoder().encode(['string'], [s]);

describe('decodeString', () => {
  it('drops control characters and trims', () => {
    assert.equal(decodeString(asString('\u0000 Wrapped\nEther\u007f ')), 'WrappedEther');
  });
  it('cuts at 200 units, leaving out a surrogate pair the cut would split', () => {
    assert.equal(decodeString(asString(`${'a'.repeat(199)}😀tail`)), 'a'.repeat(199));
    assert.equal(decodeString(asString(`${'a'.repeat(198)}😀tail`)), `${'a'.repeat(198)}😀`, 'a pair that fits is kept');
  });
  it('reads bytes32 metadata', () => {
    assert.equal(decodeString(`0x${Buffer.from('MKR').toString('hex').padEnd(64, '0')}`), 'MKR');
  });
});
