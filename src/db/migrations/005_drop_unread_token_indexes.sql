-- The API answers token lists, tokens and price histories from the read model in memory
-- (src/readModel), not from SQL: nothing in production orders or filters tokens in the database
-- any more, so the per-column ORDER BY indexes of 001 (and the is_secure one) only cost every
-- indexer write. Loading the catalogue reads by address (the primary key) and row_version (003).
DROP INDEX IF EXISTS tokens_name_asc;
DROP INDEX IF EXISTS tokens_name_desc;
DROP INDEX IF EXISTS tokens_symbol_asc;
DROP INDEX IF EXISTS tokens_symbol_desc;
DROP INDEX IF EXISTS tokens_decimals_asc;
DROP INDEX IF EXISTS tokens_decimals_desc;
DROP INDEX IF EXISTS tokens_price_asc;
DROP INDEX IF EXISTS tokens_price_desc;
DROP INDEX IF EXISTS tokens_price_at_asc;
DROP INDEX IF EXISTS tokens_price_at_desc;
DROP INDEX IF EXISTS tokens_created_asc;
DROP INDEX IF EXISTS tokens_created_desc;
DROP INDEX IF EXISTS tokens_updated_asc;
DROP INDEX IF EXISTS tokens_updated_desc;
DROP INDEX IF EXISTS tokens_var_asc;
DROP INDEX IF EXISTS tokens_var_desc;
DROP INDEX IF EXISTS tokens_var_abs_asc;
DROP INDEX IF EXISTS tokens_var_abs_desc;
DROP INDEX IF EXISTS tokens_sells_asc;
DROP INDEX IF EXISTS tokens_sells_desc;
DROP INDEX IF EXISTS tokens_buys_asc;
DROP INDEX IF EXISTS tokens_buys_desc;
DROP INDEX IF EXISTS tokens_swaps_asc;
DROP INDEX IF EXISTS tokens_swaps_desc;
DROP INDEX IF EXISTS tokens_spam_asc;
DROP INDEX IF EXISTS tokens_spam_desc;
DROP INDEX IF EXISTS tokens_supply_asc;
DROP INDEX IF EXISTS tokens_supply_desc;
DROP INDEX IF EXISTS tokens_fdv_asc;
DROP INDEX IF EXISTS tokens_fdv_desc;
DROP INDEX IF EXISTS tokens_secure;
