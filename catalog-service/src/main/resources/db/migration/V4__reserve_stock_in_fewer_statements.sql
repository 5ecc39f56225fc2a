-- reserve_stock with the same results in fewer statements. V3 claimed the order id first with an OUT_OF_STOCK
-- row, then took the copies, then rewrote the row as RESERVED and read it back: two writes to reservations, a
-- KEY SHARE lock on the book (the foreign key's check, a WAL record of its own) before the book's update, and a
-- read, on every buy. Here a buy writes each row once:
--
-- 1. A repeat (retry, hedge, recovery) finds its reservation and returns it; nothing changes.
-- 2. Otherwise the conditional UPDATE takes the copies (its row lock serialises takers of one book, and each
--    re-checks the stock it sees), and the reservation is inserted with its final outcome.
-- 3. The insert is still the claim: a concurrent call for the same order id that passed step 1 at the same
--    time waits on the key and then finds it taken. Having possibly taken copies already, it raises
--    serialization_failure, which rolls its whole transaction back (the copies too); the caller repeats the
--    call, which then ends in step 1. Such a race needs two calls for one order at the same moment (a hedge).
--
-- Returns no row for an unknown book (nothing stored). Otherwise one row: the order's reservation, with
-- claimed = true when this call decided it (then book_version/book_topic are set when copies were taken,
-- for the cache invalidation) and claimed = false when it already existed (a repeat or a conflicting reuse).
CREATE OR REPLACE FUNCTION reserve_stock(p_order_id BIGINT, p_book_id BIGINT, p_quantity INTEGER)
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
    decided       VARCHAR(16);
BEGIN
    RETURN QUERY
        SELECT r.order_id, r.book_id, r.quantity, r.outcome, r.unit_price, r.total, r.stock_after, FALSE,
               NULL::BIGINT, NULL::VARCHAR(100)
        FROM reservations r
        WHERE r.order_id = p_order_id;
    IF FOUND THEN
        RETURN;
    END IF;

    UPDATE books b
    SET stock = b.stock - p_quantity, version = b.version + 1
    WHERE b.id = p_book_id AND b.stock >= p_quantity
    RETURNING b.price, b.stock, b.version, b.topic INTO taken_price, taken_stock, taken_version, taken_topic;

    IF FOUND THEN
        decided := 'RESERVED';
        INSERT INTO reservations AS r (order_id, book_id, quantity, outcome, unit_price, total, stock_after)
        VALUES (p_order_id, p_book_id, p_quantity, decided, taken_price, taken_price * p_quantity, taken_stock)
        ON CONFLICT ON CONSTRAINT reservations_pkey DO NOTHING;
    ELSE
        decided := 'OUT_OF_STOCK';
        taken_version := NULL;
        taken_topic := NULL;
        INSERT INTO reservations AS r (order_id, book_id, quantity, outcome, unit_price, stock_after)
        SELECT p_order_id, b.id, p_quantity, decided, b.price, b.stock
        FROM books b
        WHERE b.id = p_book_id
        ON CONFLICT ON CONSTRAINT reservations_pkey DO NOTHING
        RETURNING r.unit_price, r.stock_after INTO taken_price, taken_stock;
    END IF;

    IF NOT FOUND THEN
        IF EXISTS (SELECT 1 FROM reservations r WHERE r.order_id = p_order_id) THEN
            RAISE EXCEPTION 'order % was claimed by a concurrent reservation; repeat the call', p_order_id
                USING ERRCODE = 'serialization_failure';
        END IF;
        RETURN; -- unknown book
    END IF;

    RETURN QUERY
        SELECT p_order_id, p_book_id, p_quantity, decided, taken_price,
               CASE WHEN decided = 'RESERVED' THEN taken_price * p_quantity END, taken_stock, TRUE,
               taken_version, taken_topic;
END;
$$;
