-- Orders belong to their buyer: the subject of the buyer's token. NULL is an anonymous classic buy, placed by a
-- frontend with its own service token. An Idempotency-Key is the buyer's own: two buyers using the same key get
-- two orders and never each other's, while a buyer's retry still finds its order. NULLS NOT DISTINCT makes the
-- anonymous buys one more buyer (a key of theirs has one order too), not an exception to the rule.
ALTER TABLE orders ADD COLUMN owner TEXT;
ALTER TABLE orders DROP CONSTRAINT orders_idempotency_key_key;
ALTER TABLE orders ADD CONSTRAINT orders_key_per_owner UNIQUE NULLS NOT DISTINCT (idempotency_key, owner);

-- A buyer's page of orders, newest first, and its count.
CREATE INDEX orders_by_owner ON orders (owner, id);
