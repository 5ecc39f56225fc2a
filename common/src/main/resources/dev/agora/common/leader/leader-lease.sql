-- Leadership leases (dev.agora.common.leader): one row per role that one instance at a time must play. A service
-- that uses LeaderLease copies this file into its own Flyway migrations (each service owns its database); its
-- LeaseMigrationTest (with LeaseSchema from the test-jar) keeps the copy's statements equal to these.
CREATE TABLE leader_lease (
    name           TEXT PRIMARY KEY,
    -- the instance holding (or last holding) the lease; '' before anyone took it
    holder         TEXT NOT NULL,
    -- the fencing token: incremented by every takeover
    epoch          BIGINT NOT NULL,
    -- by the database's clock: a lease not renewed before then is free
    expires_at     TIMESTAMPTZ NOT NULL,
    acquired_at    TIMESTAMPTZ,
    -- the holder's renewing session: when it is gone (the holder's process died), the lease is free at once
    holder_backend INTEGER,
    -- Makes epoch part of a key, so a takeover (which changes it) needs the row lock that conflicts with the fence's
    -- FOR KEY SHARE and waits for the fenced writes in flight; a renewal changes no key column and never waits.
    CONSTRAINT leader_lease_epoch UNIQUE (name, epoch)
);

-- Run in a leader's write transaction, last before its commit: fails (SQLSTATE AGLF1) unless the writer's epoch is
-- still current, and keeps the row locked until the commit so that no takeover happens in between. A writer frozen
-- between this call and its commit would hold that lock; the server ends its idle transaction after a second.
CREATE FUNCTION leader_fence(lease TEXT, held_epoch BIGINT) RETURNS BOOLEAN
LANGUAGE plpgsql VOLATILE AS $$
BEGIN
    PERFORM set_config('idle_in_transaction_session_timeout', '1000', true);
    PERFORM 1 FROM leader_lease WHERE name = lease AND epoch = held_epoch FOR KEY SHARE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'leadership % at epoch % has passed to another instance', lease, held_epoch
            USING ERRCODE = 'AGLF1';
    END IF;
    RETURN true;
END
$$;
