-- A reservation is decided in ONE call: the claim on the order id and the conditional decrement run inside
-- the function, so the order service's request costs one round trip and one commit instead of four round
-- trips of a client-side transaction. The statements and their locking are those of the two-step version:
-- the claim (INSERT ... ON CONFLICT DO NOTHING) makes a concurrent claim of the same order id wait for this
-- transaction and then find the key taken; the conditional UPDATE's row lock serialises takers of one book,
-- and each re-checks the stock it sees.
--
-- Returns no row for an unknown book (nothing stored). Otherwise one row: the order's reservation, with
-- claimed = true when this call decided it (then book_version/book_topic are set when copies were taken,
-- for the cache invalidation) and claimed = false when it already existed (a repeat or a conflicting reuse).
CREATE FUNCTION reserve_stock(p_order_id BIGINT, p_book_id BIGINT, p_quantity INTEGER)
    RETURNS TABLE (
        order_id     BIGINT,
        book_id      BIGINT,
        quantity     INTEGER,
        outcome      VARCHAR(16),
        unit_price   NUMERIC(10, 2),
        total        NUMERIC(14, 2),
        stock_after  BIGINT,
        claimed      BOOLEAN,
        book_version BIGINT,
        book_topic   VARCHAR(100))
    LANGUAGE plpgsql
AS
$$
#variable_conflict use_column
DECLARE
    taken_price   NUMERIC(10, 2);
    taken_stock   BIGINT;
    taken_version BIGINT;
    taken_topic   VARCHAR(100);
BEGIN
    INSERT INTO reservations AS r (order_id, book_id, quantity, outcome, unit_price, stock_after)
    SELECT p_order_id, b.id, p_quantity, 'OUT_OF_STOCK', b.price, b.stock
    FROM books b
    WHERE b.id = p_book_id
    ON CONFLICT ON CONSTRAINT reservations_pkey DO NOTHING;

    IF NOT FOUND THEN
        RETURN QUERY
            SELECT r.order_id, r.book_id, r.quantity, r.outcome, r.unit_price, r.total, r.stock_after, FALSE,
                   NULL::BIGINT, NULL::VARCHAR(100)
            FROM reservations r
            WHERE r.order_id = p_order_id;
        RETURN;
    END IF;

    UPDATE books b
    SET stock = b.stock - p_quantity, version = b.version + 1
    WHERE b.id = p_book_id AND b.stock >= p_quantity
    RETURNING b.price, b.stock, b.version, b.topic INTO taken_price, taken_stock, taken_version, taken_topic;

    IF FOUND THEN
        UPDATE reservations r
        SET outcome = 'RESERVED', unit_price = taken_price, total = taken_price * p_quantity,
            stock_after = taken_stock
        WHERE r.order_id = p_order_id;
    END IF;

    RETURN QUERY
        SELECT r.order_id, r.book_id, r.quantity, r.outcome, r.unit_price, r.total, r.stock_after, TRUE,
               taken_version, taken_topic
        FROM reservations r
        WHERE r.order_id = p_order_id;
END;
$$;
