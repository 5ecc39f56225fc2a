-- Text keys compare as bytes (collation "C"): every index lookup of an account id or symbol is then a memcmp
-- instead of a locale-aware comparison, which showed up in the database's CPU per batch. Ids are digits and
-- symbols ASCII letters and digits (V1's checks), nothing orders rows by these columns, and equality is
-- the same under either collation.
ALTER TABLE account ALTER COLUMN id TYPE TEXT COLLATE "C";
ALTER TABLE position
    ALTER COLUMN account_id TYPE TEXT COLLATE "C",
    ALTER COLUMN symbol TYPE TEXT COLLATE "C";
ALTER TABLE exchange_order
    ALTER COLUMN account_id TYPE TEXT COLLATE "C",
    ALTER COLUMN symbol TYPE TEXT COLLATE "C";
ALTER TABLE execution ALTER COLUMN symbol TYPE TEXT COLLATE "C";
