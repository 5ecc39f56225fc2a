-- The engine keeps only open state in memory (accounts, positions, open orders); closed orders and executions are
-- read from here when a query asks for them, and start-up loads only the open orders.
--
-- Executions by order: a query of a closed order reads its executions (both sides of a trade are orders). Execution
-- rows are only ever inserted, so these cost an index entry each on insert and nothing later.
CREATE INDEX execution_buy_order ON execution (buy_order_id, id);
CREATE INDEX execution_sell_order ON execution (sell_order_id, id);

-- The open orders, for start-up: it reads them through this index, so its time follows the number of open orders,
-- not of all orders ever placed. (An order's update that closes it now touches an index, so that update is no longer
-- HOT; the cost is one index entry per closed order.)
CREATE INDEX exchange_order_open ON exchange_order (id) WHERE open_shares > 0;

-- Order and execution ids have been 64-bit (BIGINT) since V1; the engine's in-memory index capped them at 2^31 and
-- no longer exists. Nothing to change here but to say so.
COMMENT ON COLUMN exchange_order.id IS 'the engine''s 64-bit global order sequence, also time priority';
COMMENT ON COLUMN execution.id IS 'the engine''s 64-bit global execution sequence';
