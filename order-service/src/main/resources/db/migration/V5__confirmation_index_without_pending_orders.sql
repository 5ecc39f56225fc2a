-- A confirmation's place is unique among the orders that have one. The column's UNIQUE constraint (V4) indexed every
-- order, so each buy's PENDING insert added an entry for its NULL; this partial index holds only the places and gives
-- the same guarantee (NULLs were never equal to each other).
ALTER TABLE orders DROP CONSTRAINT orders_confirmation_key;
CREATE UNIQUE INDEX orders_confirmation ON orders (confirmation) WHERE confirmation IS NOT NULL;
