-- The exchange's durable truth. The engine keeps the same state in memory and rebuilds it from here on
-- start. Quantities and money are NUMERIC without a fixed scale: exact, and echoing the scale clients used.

CREATE TABLE account (
    id      TEXT PRIMARY KEY CHECK (id ~ '^[0-9]{1,100}$'),
    balance NUMERIC NOT NULL CHECK (balance >= 0)
);

CREATE TABLE position (
    account_id TEXT    NOT NULL REFERENCES account (id),
    symbol     TEXT    NOT NULL CHECK (symbol ~ '^[A-Za-z0-9]{1,32}$'),
    shares     NUMERIC NOT NULL CHECK (shares >= 0),
    PRIMARY KEY (account_id, symbol)
);

-- Order ids are the engine's global sequence, which is also time priority.
CREATE TABLE exchange_order (
    id              BIGINT  PRIMARY KEY,
    account_id      TEXT    NOT NULL REFERENCES account (id),
    symbol          TEXT    NOT NULL,
    amount          NUMERIC NOT NULL CHECK (amount <> 0),
    limit_price     NUMERIC NOT NULL CHECK (limit_price > 0),
    open_shares     NUMERIC NOT NULL CHECK (open_shares >= 0),
    canceled_shares NUMERIC CHECK (canceled_shares > 0),
    canceled_at     BIGINT,
    CHECK ((canceled_shares IS NULL) = (canceled_at IS NULL))
);

CREATE TABLE execution (
    id            BIGINT  PRIMARY KEY,
    buy_order_id  BIGINT  NOT NULL REFERENCES exchange_order (id),
    sell_order_id BIGINT  NOT NULL REFERENCES exchange_order (id),
    symbol        TEXT    NOT NULL,
    shares        NUMERIC NOT NULL CHECK (shares > 0),
    price         NUMERIC NOT NULL CHECK (price > 0),
    executed_at   BIGINT  NOT NULL
);
