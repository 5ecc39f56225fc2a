-- The order log. One row per Idempotency-Key: the unique key is what makes a retried buy return the same
-- order, also when two attempts race. Order ids come from the identity column's sequence.
CREATE TABLE orders (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    idempotency_key VARCHAR(100)   NOT NULL UNIQUE,
    book_id         BIGINT         NOT NULL CHECK (book_id > 0),
    quantity        INTEGER        NOT NULL CHECK (quantity > 0),
    status          VARCHAR(16)    NOT NULL CHECK (status IN ('PENDING', 'CONFIRMED', 'REJECTED')),
    total           NUMERIC(14, 2),
    rejection       VARCHAR(32),
    created_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ    NOT NULL DEFAULT now(),
    CHECK ((status = 'CONFIRMED') = (total IS NOT NULL)),
    CHECK ((status = 'REJECTED') = (rejection IS NOT NULL))
);

-- The recovery sweeper looks for orders a crash left PENDING.
CREATE INDEX orders_pending ON orders (updated_at) WHERE status = 'PENDING';
