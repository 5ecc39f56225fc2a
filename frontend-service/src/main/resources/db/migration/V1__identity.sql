-- People and programs who sign in at the frontend, the OAuth2 clients they use, and the keys tokens are signed with.

-- Spring Security's JdbcUserDetailsManager schema: a user and their roles (authorities ROLE_*); a user may hold several.
CREATE TABLE users (
    username varchar(100) PRIMARY KEY,
    password varchar(500) NOT NULL,
    enabled boolean NOT NULL
);

CREATE TABLE authorities (
    username varchar(100) NOT NULL REFERENCES users (username) ON DELETE CASCADE,
    authority varchar(100) NOT NULL,
    PRIMARY KEY (username, authority)
);

-- Spring Authorization Server's JdbcRegisteredClientRepository schema (timestamps as timestamptz, per its notes).
CREATE TABLE oauth2_registered_client (
    id varchar(100) NOT NULL,
    client_id varchar(100) NOT NULL UNIQUE,
    client_id_issued_at timestamptz DEFAULT CURRENT_TIMESTAMP NOT NULL,
    client_secret varchar(200) DEFAULT NULL,
    client_secret_expires_at timestamptz DEFAULT NULL,
    client_name varchar(200) NOT NULL,
    client_authentication_methods varchar(1000) NOT NULL,
    authorization_grant_types varchar(1000) NOT NULL,
    redirect_uris varchar(1000) DEFAULT NULL,
    post_logout_redirect_uris varchar(1000) DEFAULT NULL,
    scopes varchar(1000) NOT NULL,
    client_settings varchar(2000) NOT NULL,
    token_settings varchar(2000) NOT NULL,
    PRIMARY KEY (id)
);

-- Token signing keys (RSA, PKCS#8 PEM) for local runs, where no key is configured: the first frontend to start
-- makes one, every frontend of the cluster signs with it and publishes it at /oauth2/jwks.
CREATE TABLE signing_keys (
    kid varchar(100) PRIMARY KEY,
    private_key text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
