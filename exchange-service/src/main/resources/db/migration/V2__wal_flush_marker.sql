-- Batches are written with synchronous_commit off (their commit records go to the WAL at once, but the
-- sequencer does not wait for the flush). A second connection then makes them durable together by
-- committing an update of this one row with synchronous_commit on: its commit flushes the WAL up to its own
-- commit record, which lies after every batch written before it. No reply is sent before that flush.
CREATE TABLE exchange_wal_flush (
    id      INT    PRIMARY KEY CHECK (id = 1),
    flushes BIGINT NOT NULL
);

INSERT INTO exchange_wal_flush (id, flushes) VALUES (1, 0);
