// The subset of pino's logger the indexer calls, and one that says nothing (tests, tools).
export type IndexerLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
};

export const silentLogger: IndexerLogger = { info() {}, warn() {}, error() {}, debug() {} };
