import type { Logger } from 'pino';
import type { Database } from '../db/index.ts';

export type ApiDeps = {
  db: Database;
  logger: Logger;
  /** Wall clock; tests pin it. */
  now?: () => Date;
};
