// Package clients runs real PostgreSQL drivers against an in-process sqlgate:
// pgx (every query-exec mode, Batch, CopyFrom), lib/pq, psql (\copy in and
// out), pgJDBC, psycopg2 and node-postgres. Each round-trips the scalar types
// sqlgate supports through parameterised INSERTs and SELECTs, with NULLs and
// extreme values. A driver that is not installed fails its test: .ci/run
// installs them (Debian packages and npm).
//
// The introspection tests compare sqlgate with a throwaway PostgreSQL 15
// holding the same tables (oracle_test.go): pgJDBC's DatabaseMetaData
// (java/Metadata.java), SQLAlchemy's inspector over psycopg2
// (python/inspect_tables.py), the schema, table and column queries of
// Grafana's, Metabase's and DBeaver's PostgreSQL integrations, copied from
// their sources into bi/queries.sql, and the SQLSTATEs of unknown catalog
// relations, functions and names; SQLAlchemy's create_all
// (python/create_all.py), an Alembic history run up and down with its
// transactional DDL (python/alembic_history.py) and a dbt-postgres project
// run twice and tested (python/dbt_project.py, in the virtualenv
// scripts/install-test-deps.sh makes), a Django project's migrate, ORM
// queries, inspectdb and migrations rolled back (python/django_project.py,
// in a virtualenv of its own) and a Sequelize application's sync, model
// queries, transactions and sync({alter: true}) (node/sequelize.js)
// against both. What
// sqlgate cannot answer yet is listed
// in each test with the exact error it gives, so each list stays true.
//
// It owns only tests; it must not reach any address but loopback.
package clients
