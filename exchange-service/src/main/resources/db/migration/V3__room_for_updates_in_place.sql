-- Accounts, positions and orders are updated far more often than they are inserted (every order moves a
-- balance or a position, every fill and cancel changes an order). With full pages an update must put the new
-- row version on another page and add an entry to every index for it; leaving room on each page lets most
-- updates stay on their page (HOT: no index entry, less WAL). Applies to pages written from now on.
ALTER TABLE account SET (fillfactor = 70);
ALTER TABLE position SET (fillfactor = 70);
ALTER TABLE exchange_order SET (fillfactor = 70);
