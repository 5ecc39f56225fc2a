-- The idempotency key a REST client (the frontend, for every placement through it) sent with an order: a placement
-- whose answer was lost (its leader froze or died) is sent again, possibly to the successor, which must then name
-- the order already placed instead of placing a second one. NULL for orders without a key (the XML protocol's).
-- Adding a nullable column without a default rewrites nothing.
ALTER TABLE exchange_order ADD COLUMN client_key TEXT;

-- Start-up reads the keys of the latest keyed orders (MatchingEngine.ORDER_KEYS_KEPT of them) through this index.
-- Keys are deliberately not unique here: the engine remembers the latest ones only, and a key reused long after
-- must not fail the whole batch its order is committed in.
CREATE INDEX exchange_order_keyed ON exchange_order (id) WHERE client_key IS NOT NULL;
