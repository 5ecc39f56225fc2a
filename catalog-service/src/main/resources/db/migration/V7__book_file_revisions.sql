-- A revision per registration of a name, from one sequence. A new name takes its value on insert; a name given new
-- content takes a fresh one in the update, which runs only once it holds the name's row lock, so a name's revisions
-- rise in the order its registrations commit. Frontends that keep a name's bytes in memory are told the revision with
-- every registration: what they hold for the name at a lower revision is stale, and a copy read at a revision below
-- one they were told of is never kept.
CREATE SEQUENCE book_file_revisions;
ALTER TABLE book_files ADD COLUMN revision BIGINT NOT NULL DEFAULT nextval('book_file_revisions');
