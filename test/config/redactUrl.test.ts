// What of a configured URL may be printed (scheme, host, port) and what never may (credentials,
// key-like path segments and query values), in every form a log line can carry it.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSecretScrubber, redactUrl, urlSecrets } from '../../src/config/redactUrl.ts';

const NODE = 'https://svcuser:p%40ss-w0rd@rpc.example:8443/v3/0123456789abcdef0123456789abcdef?apikey=k9k9k9k9&chain=linea';

describe('redactUrl and the secret scrubber', () => {
  it('redactUrl keeps scheme, host and port', () => {
    assert.equal(redactUrl(NODE), 'https://rpc.example:8443');
    assert.equal(redactUrl('not a url'), '(unparsable URL)');
  });

  it('urlSecrets names credentials (raw and decoded), key-like path segments and query values, not plain words', () => {
    const secrets = urlSecrets(NODE);
    for (const s of ['svcuser', 'p%40ss-w0rd', 'p@ss-w0rd', '0123456789abcdef0123456789abcdef', 'k9k9k9k9', NODE]) assert.ok(secrets.includes(s), s);
    for (const s of ['v3', 'linea', 'rpc.example']) assert.ok(!secrets.includes(s), s);
    assert.deepEqual(urlSecrets('https://rpc.linea.build'), [], 'nothing secret in a bare URL');
    assert.deepEqual(urlSecrets('./config/tokenlists/linea.json'), [], 'a file path is not a URL');
  });

  it('scrubs every form from a line: whole, in parts, JSON-escaped, in an error text', () => {
    const scrub = createSecretScrubber([NODE, 'postgres://app:db-Secret-1@db:5432/tokens', undefined]);
    const line = JSON.stringify({ msg: `fetch ${NODE} failed`, err: 'password authentication failed for user "app" (db-Secret-1)', auth: 'p@ss-w0rd', key: '0123456789abcdef0123456789abcdef' });
    const clean = scrub(line);
    for (const s of ['svcuser', 'p@ss-w0rd', 'p%40ss-w0rd', '0123456789abcdef', 'k9k9k9k9', 'db-Secret-1']) assert.ok(!clean.includes(s), `${s} in ${clean}`);
    assert.doesNotThrow(() => JSON.parse(clean), 'a JSON line stays JSON');
    assert.equal(createSecretScrubber(['https://rpc.linea.build'])('as is'), 'as is');
  });
});
