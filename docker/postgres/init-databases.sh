#!/usr/bin/env bash
# Runs once, when the postgres container initialises an empty data volume (the official image sources
# /docker-entrypoint-initdb.d/*.sh with the container's environment). One login role per service, owning
# only its own database; nobody else may connect to it (CONNECT is revoked from PUBLIC), and no service
# uses the superuser. No service reads another's tables; the services' Flyway migrations create them.
#
# The passwords come from the container's environment (compose passes them from docker/.env). They are
# read here only: to change one later, ALTER ROLE ... PASSWORD as the superuser (README.md, "Rotate").
set -euo pipefail

# create_service_database <database> <owner role> <variable holding the owner's password>
create_service_database() {
  local database=$1 owner=$2 password_variable=$3
  local password=${!password_variable:-}
  if [[ -z ${password} ]]; then
    echo "init-databases: ${password_variable} is not set: cannot create role ${owner}" >&2
    exit 1
  fi
  # psql variables (:"identifier", :'literal') quote the names and the password safely.
  psql -v ON_ERROR_STOP=1 --no-psqlrc --username "${POSTGRES_USER}" --dbname "${POSTGRES_DB}" \
    -v database="${database}" -v owner="${owner}" -v password="${password}" <<'SQL'
CREATE ROLE :"owner" LOGIN PASSWORD :'password';
CREATE DATABASE :"database" OWNER :"owner";
REVOKE ALL ON DATABASE :"database" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"database" TO :"owner";
SQL
  echo "init-databases: database ${database} owned by role ${owner}"
}

create_service_database catalog catalog CATALOG_DATABASE_PASSWORD
create_service_database orders orders ORDERS_DATABASE_PASSWORD
create_service_database exchange exchange EXCHANGE_DATABASE_PASSWORD
create_service_database identity identity IDENTITY_DATABASE_PASSWORD

# The maintenance database is the superuser's: the service roles may not even connect to it.
psql -v ON_ERROR_STOP=1 --no-psqlrc --username "${POSTGRES_USER}" --dbname "${POSTGRES_DB}" \
  -c "REVOKE CONNECT ON DATABASE postgres FROM PUBLIC"
