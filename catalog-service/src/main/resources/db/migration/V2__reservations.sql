-- One row per order that asked for stock, keyed by the order id: the key makes a reservation idempotent.
-- A repeat finds the row and returns its outcome; a concurrent repeat waits on the key and then finds it.
CREATE TABLE reservations (
    order_id    BIGINT         PRIMARY KEY,
    book_id     BIGINT         NOT NULL REFERENCES books (id),
    quantity    INTEGER        NOT NULL CHECK (quantity > 0),
    outcome     VARCHAR(16)    NOT NULL CHECK (outcome IN ('RESERVED', 'OUT_OF_STOCK')),
    unit_price  NUMERIC(10, 2) NOT NULL,
    total       NUMERIC(14, 2),
    stock_after BIGINT         NOT NULL,
    created_at  TIMESTAMPTZ    NOT NULL DEFAULT now(),
    CHECK ((outcome = 'RESERVED') = (total IS NOT NULL))
);

CREATE INDEX reservations_by_book ON reservations (book_id);
