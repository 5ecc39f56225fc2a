-- An account belongs to a user: the subject of the tokens the frontends' authorization server issues, given when
-- an admin creates the account over REST, and fixed from then on. Accounts created over the XML protocol (which
-- carries no identities) have none, so over REST only an admin reaches them. The engine keeps the owner with the
-- account in memory and checks it on its single writer thread; this column is what it reloads on start. Added
-- without a default, so PostgreSQL changes only the catalog, whatever the table's size.
ALTER TABLE account ADD COLUMN owner TEXT COLLATE "C";
