// While the catalogue applies a load chunk by chunk, the tokens it holds are between two data
// versions: the answers stored at the version it held whole are served (marked stale: the check is
// late), and nothing built meanwhile is stored, so no mix of two versions is ever served again.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import request from 'supertest';
import { upsertTokens, type Database, type Queryable } from '../../src/db/index.ts';
import { createTokenCatalog, type TokenCatalog } from '../../src/readModel/tokens/createTokenCatalog.ts';
import { resetDatabase, testDatabases } from '../helpers/testDatabases.ts';
import { testApp } from '../helpers/testApp.ts';
import { makeTokens } from '../helpers/tokenFixtures.ts';

type Page = { data: { name: string }[] };
const names = (body: unknown) => (body as Page).data.map((t) => t.name);

for (const target of testDatabases) {
  describe(`stored answers while a load is applied, on ${target.name}`, { skip: target.skip }, () => {
    let db: Database;
    before(async () => {
      db = await target.open();
    });
    after(() => db.close());

    it('serves what the version held whole answered, stores nothing built mid-load', async () => {
      await resetDatabase(db);
      const tokens = makeTokens(17);
      await upsertTokens(db, tokens);
      let catalog: TokenCatalog | undefined;
      let probe: (() => Promise<void>) | undefined;
      // Runs the probe once, at a token chunk query of a load whose first chunk is applied.
      const watched: Queryable = {
        async query(sql, params) {
          if (probe && /FROM tokens/.test(sql) && /row_version > \$1/.test(sql) && catalog!.version() === '') {
            const run = probe;
            probe = undefined;
            await run();
          }
          return db.query(sql, params);
        },
        exec: (sql) => db.exec(sql),
      };
      // Every request checks the version and waits for no load: it answers from what is held.
      catalog = createTokenCatalog({ db: watched, staleMs: 0, waitMs: 0, chunkRows: 3 });
      const app = testApp(db, { catalog });
      await catalog.refresh(true);
      const cached = (await request(app).get('/tokens?limit=5').expect(200)).body as Page;
      assert.ok(names(cached).every((n) => !n.endsWith('*')));

      const whole = catalog.version();
      await upsertTokens(db, tokens.map((t) => ({ ...t, name: `${t.name}*`, at: new Date() })));
      let probed = false;
      probe = async () => {
        probed = true;
        assert.equal(catalog.heldVersion(), whole, 'mid-load, the version held whole is the one before the load');
        const hit = await request(app).get('/tokens?limit=5').expect(200);
        assert.deepEqual(hit.body, cached, 'the answer stored at the version held whole');
        assert.equal(hit.headers['x-data-stale'], 'true', 'served while its check is late');
        const mixed = names((await request(app).get('/tokens?limit=7').expect(200)).body);
        assert.ok(mixed.some((n) => n.endsWith('*')) && mixed.some((n) => !n.endsWith('*')), `built mid-load: ${JSON.stringify(mixed)}`);
      };
      await catalog.refresh(true);
      assert.equal(probed, true, 'the probe ran during the load');
      assert.notEqual(catalog.version(), '');
      assert.notEqual(catalog.version(), whole);
      assert.equal(catalog.heldVersion(), catalog.version());
      for (const url of ['/tokens?limit=5', '/tokens?limit=7']) {
        const now = names((await request(app).get(url).expect(200)).body);
        assert.ok(now.every((n) => n.endsWith('*')), `${url} after the load: ${JSON.stringify(now)}`);
      }
      catalog.stop();
    });
  });
}
