import pino from 'pino';
import { createApp, type AppOptions } from '../../src/api/createApp.ts';
import type { Database } from '../../src/db/index.ts';

export const silentLogger = pino({ level: 'silent' });

/** The real app with response validation on, as every API test uses it. */
export function testApp(db: Database, extra: Partial<AppOptions> = {}) {
  return createApp({ db, logger: silentLogger, validateResponses: true, ...extra });
}
