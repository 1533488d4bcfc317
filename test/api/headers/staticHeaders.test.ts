import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import cors from 'cors';
import express from 'express';
import helmet from 'helmet';
import request from 'supertest';
import { only, staticHeaders } from '../../../src/api/headers/staticHeaders.ts';

const appWith = (...mw: express.RequestHandler[]) => {
  const app = express();
  app.disable('x-powered-by');
  app.use(...mw);
  app.get('/x', (_req, res) => void res.send('ok'));
  return app;
};

describe('staticHeaders', () => {
  it('sets exactly the headers helmet and CORS set themselves', async () => {
    const live = await request(appWith(helmet(), cors({ origin: '*', exposedHeaders: ['ETag'] }))).get('/x').set('Origin', 'https://a.example');
    const fixed = await request(appWith(staticHeaders(helmet(), cors({ origin: '*', exposedHeaders: ['ETag'] })))).get('/x').set('Origin', 'https://a.example');
    const pick = (h: Record<string, string>) => Object.fromEntries(Object.entries(h).filter(([k]) => !['date', 'etag', 'content-length', 'connection', 'keep-alive'].includes(k)));
    assert.deepEqual(pick(fixed.headers), pick(live.headers));
    assert.ok(Object.keys(pick(live.headers)).length > 10);
  });

  it('refuses middleware that answers or is asynchronous', () => {
    assert.throws(() => staticHeaders((_req, res) => void res.end()), /answered/);
    assert.throws(() => staticHeaders((_req, _res, next) => void setTimeout(next, 1)), /synchronously/);
  });

  it('only() runs a middleware when its condition holds', async () => {
    const tag: express.RequestHandler = (_req, res, next) => {
      res.setHeader('X-Tag', '1');
      next();
    };
    const app = appWith(only((req) => req.headers['x-want'] === 'yes', tag));
    assert.equal((await request(app).get('/x').set('X-Want', 'yes')).headers['x-tag'], '1');
    assert.equal((await request(app).get('/x')).headers['x-tag'], undefined);
  });
});
