-- The raffle: every 100th confirmed buy wins its total back. Confirmations are counted in one total order across
-- every order replica by this single row, updated in the very transaction that confirms an order: a confirmation
-- that rolls back takes its increment with it, so positions have no gaps (a sequence would leave one per
-- rollback, and a gap at a multiple of 100 would be a raffle without a winner). The row lock it takes serialises
-- confirmations for the few microseconds between the update and the commit, which does not wait for the disk
-- (Orders.finish).
CREATE TABLE raffle_tally (
    only_row  BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),
    confirmed BIGINT  NOT NULL CHECK (confirmed >= 0)
);
INSERT INTO raffle_tally (confirmed) VALUES (0);

-- confirmation: the order's place among all confirmations (1, 2, ...); orders confirmed before the raffle existed
-- have none and are not counted. refunded: the winner's refund, its total to the cent; set only on winners.
ALTER TABLE orders ADD COLUMN confirmation BIGINT UNIQUE;
ALTER TABLE orders ADD COLUMN refunded NUMERIC(14, 2);
ALTER TABLE orders ADD CONSTRAINT orders_confirmation_only_when_confirmed
    CHECK (confirmation IS NULL OR status = 'CONFIRMED');
ALTER TABLE orders ADD CONSTRAINT orders_refund_is_the_winners_total
    CHECK (refunded IS NULL OR (confirmation % 100 = 0 AND refunded = total));

-- The winners list, in order.
CREATE INDEX orders_raffle_winners ON orders (confirmation) WHERE refunded IS NOT NULL;
