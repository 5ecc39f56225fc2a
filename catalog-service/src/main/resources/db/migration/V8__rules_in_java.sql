-- The rules these functions held now live in the catalog's Java code (catalog-service/README.md, "Data tier"):
-- a reservation locks its book's row and decides in Java (ReservingStock, BookStock), the file search is two
-- JPQL queries (FileIndex.search). Nothing calls the functions any more.
DROP FUNCTION reserve_stock(BIGINT, BIGINT, INTEGER);
DROP FUNCTION search_files(TEXT, TEXT, TEXT, TEXT, INTEGER);

-- The search by the start of a file's name compares the lower-cased name in code point order (collation ucs_basic:
-- JPQL has no text_pattern_ops operators), as a range [prefix, the least string above it) that a plan made once for
-- unknown parameters can still use. This index is that order; the text_pattern_ops one of V5 served the function.
CREATE INDEX book_files_by_name_prefix ON book_files ((lower(name) COLLATE ucs_basic));
DROP INDEX book_files_by_name;
