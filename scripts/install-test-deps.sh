#!/usr/bin/env bash
# Installs what `make test` needs beyond Go, only what is missing: PostgreSQL
# 15 (the oracle) and psql, the drivers of tests/clients (pgJDBC with a JDK to
# compile its test programs, psycopg2, SQLAlchemy and Alembic, node-postgres and Sequelize,
# Django and dbt in virtualenvs). Debian packages need
# root (or sudo); npm packages go to tests/clients/node/node_modules.
set -euo pipefail
cd "$(dirname "$0")/.."

export DEBIAN_FRONTEND=noninteractive
need=()
command -v psql >/dev/null 2>&1 || need+=(postgresql-client)
[ -x /usr/lib/postgresql/15/bin/postgres ] || need+=(postgresql-15)
[ -f /usr/share/java/postgresql.jar ] || need+=(libpostgresql-jdbc-java)
command -v javac >/dev/null 2>&1 || need+=(default-jdk-headless)
# The Fluss 0.9.1 cluster of `make test-cluster`: Maven fetches its jars (below).
command -v mvn >/dev/null 2>&1 || need+=(maven)
{ [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import psycopg2' >/dev/null 2>&1; } || need+=(python3-psycopg2)
{ [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import sqlalchemy' >/dev/null 2>&1; } || need+=(python3-sqlalchemy)
# Alembic for tests/clients/alembic_test.go (Debian's matches its SQLAlchemy).
{ [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import alembic' >/dev/null 2>&1; } || need+=(python3-alembic)
# pyfluss's and dbt's virtualenvs (below) need venv with ensurepip.
python3 -c 'import ensurepip, venv' >/dev/null 2>&1 || need+=(python3-venv)
command -v node >/dev/null 2>&1 || need+=(nodejs)
command -v npm >/dev/null 2>&1 || need+=(npm)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing Debian packages: ${need[*]}"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
if [ ! -f tests/clients/node/node_modules/pg/package.json ] || [ ! -f tests/clients/node/node_modules/sequelize/package.json ]; then
  (cd tests/clients/node && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi
# Fluss 0.9.1's server jars from Maven Central, once, into the user's cache
# (scripts/fluss-cluster.sh fetch is a no-op when they are there).
./scripts/fluss-cluster.sh fetch
# Fluss's Python client for the interop test of `make test-cluster`
# (fluss/remote/pyfluss_cluster_test.go): pyfluss 1.0.0 from PyPI, with
# pyarrow, in a virtualenv of its own in the user's cache, once.
PYFLUSS_VENV=${XDG_CACHE_HOME:-$HOME/.cache}/sqlgate/pyfluss-1.0.0
if ! "$PYFLUSS_VENV/bin/python" -c 'import fluss, pyarrow' >/dev/null 2>&1; then
  echo "installing pyfluss 1.0.0 into $PYFLUSS_VENV"
  rm -rf "$PYFLUSS_VENV"
  python3 -m venv "$PYFLUSS_VENV"
  "$PYFLUSS_VENV/bin/pip" install -q --disable-pip-version-check pyfluss==1.0.0
fi
# The ADBC Flight SQL driver with pyarrow for flightsql/adbc_test.go, from
# PyPI, in a virtualenv of its own in the user's cache, once. Its pyarrow
# also writes and reads the Parquet and Arrow files of
# engine/copyfile_test.go's TestPyarrowInterop.
ADBC_VENV=${XDG_CACHE_HOME:-$HOME/.cache}/sqlgate/adbc-flightsql-1.13.0
if ! "$ADBC_VENV/bin/python" -c 'import adbc_driver_flightsql.dbapi, pyarrow' >/dev/null 2>&1; then
  echo "installing the ADBC Flight SQL driver into $ADBC_VENV"
  rm -rf "$ADBC_VENV"
  python3 -m venv "$ADBC_VENV"
  "$ADBC_VENV/bin/pip" install -q --disable-pip-version-check adbc-driver-flightsql==1.13.0 adbc-driver-manager==1.13.0 pyarrow==21.0.0
fi
# pyarrow for the Python UDF workers' tests (pyudf, tests/e2e), in a
# virtualenv of its own in the user's cache, once.
PYUDF_VENV=${XDG_CACHE_HOME:-$HOME/.cache}/sqlgate/pyarrow-21.0.0
if ! "$PYUDF_VENV/bin/python" -c 'import pyarrow.compute' >/dev/null 2>&1; then
  echo "installing pyarrow 21.0.0 into $PYUDF_VENV"
  rm -rf "$PYUDF_VENV"
  python3 -m venv "$PYUDF_VENV"
  "$PYUDF_VENV/bin/pip" install -q --disable-pip-version-check pyarrow==21.0.0
fi
# dbt-postgres for tests/clients/dbt_test.go, pinned with every dependency
# (tests/clients/python/dbt-requirements.txt), in a virtualenv of its own in
# the user's cache, once.
DBT_VENV=${XDG_CACHE_HOME:-$HOME/.cache}/sqlgate/dbt-postgres-1.11.0
if ! "$DBT_VENV/bin/python" -c 'import dbt.adapters.postgres, psycopg2' >/dev/null 2>&1; then
  echo "installing dbt-postgres 1.11.0 into $DBT_VENV"
  rm -rf "$DBT_VENV"
  python3 -m venv "$DBT_VENV"
  "$DBT_VENV/bin/pip" install -q --disable-pip-version-check -r tests/clients/python/dbt-requirements.txt
fi
# Django with psycopg2-binary for tests/clients/django_test.go, pinned with
# every dependency (tests/clients/python/django-requirements.txt), in a
# virtualenv of its own in the user's cache, once.
DJANGO_VENV=${XDG_CACHE_HOME:-$HOME/.cache}/sqlgate/django-5.2.20
if ! "$DJANGO_VENV/bin/python" -c 'import django, psycopg2' >/dev/null 2>&1; then
  echo "installing Django 5.2.20 into $DJANGO_VENV"
  rm -rf "$DJANGO_VENV"
  python3 -m venv "$DJANGO_VENV"
  "$DJANGO_VENV/bin/pip" install -q --disable-pip-version-check -r tests/clients/python/django-requirements.txt
fi
