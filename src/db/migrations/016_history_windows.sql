-- Head-first bootstrap (issue 35): the current catalogue is read at one head block, then history is
-- filled newest first. The checkpoint says from which block history is complete; databases indexed
-- forward have all of it (history_complete defaults to true, the other columns stay null).
ALTER TABLE indexer_checkpoint ADD COLUMN bootstrap_block bigint;
-- History is stored for blocks >= history_from_block; history_from_time is the chain time of the
-- block before it (every figure about a time at or after it is exact).
ALTER TABLE indexer_checkpoint ADD COLUMN history_from_block bigint;
ALTER TABLE indexer_checkpoint ADD COLUMN history_from_time timestamptz;
ALTER TABLE indexer_checkpoint ADD COLUMN history_complete boolean NOT NULL DEFAULT true;
-- A price carried to the block before history_from_block (the price in force there, read from the
-- pools' state by call), not a change seen in that block; replaced when that block's range is filled.
ALTER TABLE indexer_price_changes ADD COLUMN carried boolean NOT NULL DEFAULT false;
-- A pool's state read by call at the bootstrap block rather than replayed from its events: dropped
-- once the fill has replayed the pool's latest event.
ALTER TABLE indexer_pool_states ADD COLUMN provisional boolean NOT NULL DEFAULT false;
-- What the read model publishes about coverage (Token.completeness): the chain time history is
-- stored from (null: complete) and of the last indexed block, beside the data version readers poll.
ALTER TABLE data_version ADD COLUMN history_from timestamptz;
ALTER TABLE data_version ADD COLUMN indexed_time timestamptz;
UPDATE data_version SET indexed_time = (SELECT block_time FROM indexer_checkpoint WHERE id = 1) WHERE id = 1;
-- True once the token's contract checks have run (Token.completeness.contractChecks).
ALTER TABLE tokens ADD COLUMN contract_checked boolean NOT NULL DEFAULT false;
UPDATE tokens t SET contract_checked = true WHERE EXISTS (SELECT 1 FROM indexer_contract_checks c WHERE c.token = t.address);
