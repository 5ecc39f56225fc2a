-- Confirming an order and counting the raffle now happen in the order service's Java code (Orders.confirm: the tally
-- row locked, a conditional update of the order, the tally counted; order-service/README.md, "Data tier"). Nothing
-- calls the function any more.
DROP FUNCTION confirm_order(BIGINT, NUMERIC);
