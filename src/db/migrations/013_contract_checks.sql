-- Contract checks (docs/security-score.md): what the indexer found about each priced token's
-- contract (proxy, owner, owner powers) and whether a sale simulates, read at the chain head at
-- `block_number`. Not rolled back on a reorg: a check describes the head when it ran, and every
-- token is checked again after INDEXER_CONTRACT_CHECK_INTERVAL_MS of chain time.
CREATE TABLE indexer_contract_checks (
  token         text PRIMARY KEY,
  block_number  bigint NOT NULL,
  checked_at    timestamptz NOT NULL,
  findings      jsonb NOT NULL
);
