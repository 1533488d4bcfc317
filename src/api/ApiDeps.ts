import type { Logger } from 'pino';
import type { Database } from '../db/index.ts';
import type { TokenCatalog } from '../readModel/tokens/createTokenCatalog.ts';
import type { PriceHistoryStore } from '../readModel/prices/createPriceHistoryStore.ts';
import type { SupplyService } from '../readModel/supply/createSupplyService.ts';

export type ApiDeps = {
  db: Database;
  logger: Logger;
  /** Wall clock; tests pin it. */
  now?: () => Date;
  /** The in-memory token list the list and token endpoints answer from. */
  catalog: TokenCatalog;
  /** The in-memory hourly price histories the price endpoints answer from. */
  prices: PriceHistoryStore;
  /** Network token supply (GET /supply/*); those routes answer 404 when absent. */
  supply?: SupplyService;
};
