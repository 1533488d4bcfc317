// The built site: every file, every operation and method, no remote assets, reproducible output.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { buildDocs } from '../../src/docs/buildDocs.ts';
import { defaultSpecDir, docsFiles } from '../../src/docs/docsPaths.ts';
import { buildDocsOnce, removeBuiltDocs } from './buildDocsOnce.ts';
import { specFacts } from './specFacts.ts';

const facts = specFacts();
const remote = /cdn\.redoc\.ly|fonts\.googleapis\.com|fonts\.gstatic\.com|unpkg\.com|jsdelivr\.net|<script[^>]+\bsrc=|<link[^>]+\bhref=["']?(?:https?:)?\/\//i;

describe('docs build', () => {
  let dir: string;
  const read = (name: string) => readFile(join(dir, name), 'utf8');
  before(async () => {
    dir = (await buildDocsOnce()).outDir;
  });
  after(removeBuiltDocs);

  it('writes the pages, the three documents and the build record', async () => {
    assert.deepEqual((await readdir(dir)).sort(), [...docsFiles, 'build-info.json'].sort());
  });

  it('copies the specs, openapi.json being the YAML as JSON', async () => {
    assert.equal(await read('openapi.yaml'), await readFile(join(defaultSpecDir, 'openapi.yaml'), 'utf8'));
    assert.equal(await read('openrpc.json'), await readFile(join(defaultSpecDir, 'openrpc.json'), 'utf8'));
    assert.deepEqual(JSON.parse(await read('openapi.json')), parse(await read('openapi.yaml')));
  });

  it('lists every operationId and RPC method on the landing page, linked to the references', async () => {
    const html = await read('index.html');
    for (const id of facts.operationIds) assert.ok(html.includes(`<code>${id}</code>`), `index.html lacks ${id}`);
    for (const name of facts.methodNames) assert.ok(html.includes(`rpc.html#method-${name}`), `index.html lacks ${name}`);
    for (const link of ['rest.html', 'rpc.html', 'openapi.yaml', 'openapi.json', 'openrpc.json']) {
      assert.ok(html.includes(`href="${link}"`), `index.html does not link ${link}`);
    }
  });

  it('builds the REST reference self-contained, with every operationId', async () => {
    const html = await read('rest.html');
    assert.match(html, /<script type="module">/, 'Redoc bundle is not inlined');
    assert.doesNotMatch(html, remote);
    for (const id of facts.operationIds) assert.ok(html.includes(`Operation ID: \`${id}\``), `rest.html lacks ${id}`);
  });

  it('renders every RPC method with its params, result, errors and examples', async () => {
    const html = await read('rpc.html');
    assert.doesNotMatch(html, /<script/i, 'rpc.html needs no script');
    assert.doesNotMatch(html, remote);
    for (const method of facts.methods) {
      const start = html.indexOf(`<section id="method-${method.name}">`);
      assert.ok(start >= 0, `rpc.html lacks ${method.name}`);
      const section = html.slice(start, html.indexOf('</section>', start));
      if (method.summary) assert.ok(section.includes(method.summary.replaceAll("'", '&#39;')), `${method.name} summary`);
      for (const param of method.params) {
        if ('name' in param) assert.ok(section.includes(`<code>${param.name}</code>`), `${method.name} param ${param.name}`);
      }
      assert.ok(section.includes('<h3>Result</h3>'), `${method.name} result`);
      for (const error of method.errors ?? []) {
        const code = 'code' in error ? error.code : (facts.openrpc.components?.errors?.[error.$ref.split('/').pop() ?? '']?.code);
        assert.ok(code !== undefined && section.includes(`<code>${code}</code>`), `${method.name} error ${JSON.stringify(error)}`);
      }
      for (const example of method.examples ?? []) {
        if ('name' in example) assert.ok(section.includes(`<h4>${example.name}</h4>`), `${method.name} example ${example.name}`);
      }
      assert.ok(section.includes(`&quot;method&quot;: &quot;${method.name}&quot;`) || !(method.examples ?? []).length, `${method.name} request`);
    }
    for (const name of Object.keys(facts.openrpc.components?.schemas ?? {})) {
      assert.ok(html.includes(`id="schema-${name}"`), `rpc.html lacks schema ${name}`);
    }
  });

  it('is reproducible: a second build is byte-identical', async () => {
    const other = await mkdtemp(join(tmpdir(), 'docs-test-again-'));
    try {
      await buildDocs({ specDir: defaultSpecDir, outDir: join(other, 'site') });
      for (const name of [...docsFiles, 'build-info.json']) {
        assert.ok((await readFile(join(other, 'site', name))).equals(await readFile(join(dir, name))), `${name} differs`);
      }
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
