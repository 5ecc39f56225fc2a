-- A search of book files as one call with a plan made once per connection. The search (FileIndex.search) finds files
-- whose name starts with the query, or whose book's title or topic contains it. Sent as a statement, PostgreSQL planned
-- it anew on every call: a name prefix matched with LIKE can use the name index only once the pattern is known, so
-- the plan cache kept choosing a custom plan, and planning took several times what running it did. Here the prefix
-- also comes as a range of the index ([p_from, p_to) in byte order, the index's text_pattern_ops order), which a
-- generic plan can use with its parameters unknown; the LIKE stays as the exact condition. The function's own
-- setting makes its statement's plan generic, made at its first call on a connection and reused after.
--
-- p_from: the lower-cased prefix; p_to: the least string above every string that starts with it (the prefix with its
-- last code point raised by one; the prefix itself, an empty range, for a prefix of U+10FFFF alone, which has no
-- string above it and, unassigned, starts no name); p_prefix / p_contains: the LIKE patterns 'prefix%' and '%text%',
-- escaped with '\'.
CREATE FUNCTION search_files(p_from TEXT, p_to TEXT, p_prefix TEXT, p_contains TEXT, p_limit INTEGER)
    RETURNS TABLE (
        book_id    BIGINT,
        title      VARCHAR(200),
        name       VARCHAR(255),
        size       BIGINT,
        media_type VARCHAR(100),
        hash       VARCHAR(64),
        created    TIMESTAMPTZ,
        nodes      VARCHAR(255)[])
    LANGUAGE plpgsql
    STABLE
    SET plan_cache_mode = force_generic_plan
AS
$$
#variable_conflict use_column
BEGIN
    RETURN QUERY
        WITH hits AS (
            (SELECT f.book_id, f.name FROM book_files f
             WHERE lower(f.name) ~>=~ p_from AND lower(f.name) ~<~ p_to AND lower(f.name) LIKE p_prefix ESCAPE '\'
             ORDER BY lower(f.name) LIMIT p_limit)
            UNION
            (SELECT f.book_id, f.name FROM book_files f JOIN books b ON b.id = f.book_id
             WHERE lower(b.title) LIKE p_contains ESCAPE '\' OR lower(b.topic) LIKE p_contains ESCAPE '\'
             ORDER BY f.book_id, f.name LIMIT p_limit))
        SELECT f.book_id, b.title, f.name, f.size, f.media_type, f.hash, f.created,
               ARRAY(SELECT c.node FROM blob_copies c WHERE c.hash = f.hash ORDER BY c.node)
        FROM hits h JOIN book_files f ON f.book_id = h.book_id AND f.name = h.name
        JOIN books b ON b.id = f.book_id
        ORDER BY f.book_id, f.name LIMIT p_limit;
END;
$$;
