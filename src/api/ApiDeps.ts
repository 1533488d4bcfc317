import type { Logger } from 'pino';
import type { Database } from '../db/index.ts';
import type { SupplyService } from './supply/createSupplyService.ts';

export type ApiDeps = {
  db: Database;
  logger: Logger;
  /** Wall clock; tests pin it. */
  now?: () => Date;
  /** Network token supply (GET /supply/*); those routes answer 404 when absent. */
  supply?: SupplyService;
};
