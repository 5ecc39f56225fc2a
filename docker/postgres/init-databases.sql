-- Runs once, when the postgres container initialises an empty data volume: one database per service
-- that owns data (no service reads another's tables). The services' Flyway migrations create the tables.
CREATE DATABASE catalog;
CREATE DATABASE orders;
CREATE DATABASE exchange;
