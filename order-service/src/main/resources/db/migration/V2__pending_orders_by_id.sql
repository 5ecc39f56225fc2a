-- Finishing an order (UPDATE ... WHERE id = ? AND status = 'PENDING') chose the partial index on updated_at,
-- whose predicate its WHERE clause implies, and then filtered every pending entry by id: one finish read all
-- pending orders, so recovering N orders left PENDING by a catalog outage read N^2/2 index entries. Keyed by
-- id, the same partial index finds the one order; the sweeper still walks only pending orders, in id order.
DROP INDEX orders_pending;
CREATE INDEX orders_pending ON orders (id) WHERE status = 'PENDING';
