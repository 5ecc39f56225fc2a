-- The lease epoch of the batch that placed the order: every batch is fenced with its leader's epoch (leader_fence),
-- and the same epoch is written with the orders it places, so a history can be checked against the leadership it was
-- acknowledged under (perf's partitions checks: no order sent after another was acknowledged at a later epoch may
-- have been committed at an earlier one). NULL for orders placed before this column. No default: nothing rewritten.
ALTER TABLE exchange_order ADD COLUMN epoch BIGINT;
