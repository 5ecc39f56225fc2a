-- The recovery sweeper's election (recovery.RecoveryConfiguration): Spring Integration's JDBC lock registry holds its
-- lock as a row of INT_LOCK (the library's own schema-postgresql.sql). It replaces the lease of V4_1.
CREATE TABLE INT_LOCK (
    LOCK_KEY      CHAR(36) NOT NULL,
    REGION        VARCHAR(100) NOT NULL,
    CLIENT_ID     CHAR(36),
    CREATED_DATE  TIMESTAMP NOT NULL,
    EXPIRED_AFTER TIMESTAMP NOT NULL,
    CONSTRAINT INT_LOCK_PK PRIMARY KEY (LOCK_KEY, REGION)
);

DROP FUNCTION leader_fence(TEXT, BIGINT);
DROP TABLE leader_lease;
