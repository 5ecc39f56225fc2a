-- Book files (seed 003): the index of which book carries which file, and where the bytes are. The bytes are blobs
-- named by their SHA-256, stored once however many files share them; a file row appears only after its blob is
-- complete on every node that holds it, so a half-uploaded file is never visible.
CREATE TABLE blobs (
    hash    VARCHAR(64)    PRIMARY KEY CHECK (hash ~ '^[0-9a-f]{64}$'),
    size    BIGINT      NOT NULL CHECK (size >= 0),
    created TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- The catalog nodes (base URLs) holding a copy of a blob on their own disk. No rows: every node reaches the blob
-- (an object store shared by all).
CREATE TABLE blob_copies (
    hash VARCHAR(64)     NOT NULL REFERENCES blobs (hash),
    node VARCHAR(255) NOT NULL,
    PRIMARY KEY (hash, node)
);

CREATE TABLE book_files (
    book_id    BIGINT       NOT NULL REFERENCES books (id),
    name       VARCHAR(255) NOT NULL CHECK (length(name) > 0),
    hash       VARCHAR(64)     NOT NULL REFERENCES blobs (hash),
    size       BIGINT       NOT NULL CHECK (size >= 0),
    media_type VARCHAR(100) NOT NULL,
    created    TIMESTAMPTZ  NOT NULL DEFAULT now(),
    PRIMARY KEY (book_id, name)
);

-- Search by the start of a file's name, whatever its case.
CREATE INDEX book_files_by_name ON book_files (lower(name) text_pattern_ops);
CREATE INDEX book_files_by_hash ON book_files (hash);
