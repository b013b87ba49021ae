#!/usr/bin/env bash
# Makes the virtualenv of the bench's Python figures (W2 into Python, issue 29
# acceptance 4): the ADBC Flight SQL driver with pyarrow for sqlgate's Flight
# side, psycopg2 with pandas for the PostgreSQL-protocol side. Idempotent: a
# venv that already imports everything is left as it is. Prints the
# interpreter's path (what SQLGATE_BENCH_PYTHON takes); bench/flight.go uses
# the same default path.
set -euo pipefail
VENV=${SQLGATE_BENCH_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/sqlgate/bench-python-1}
CHECK='import adbc_driver_flightsql.dbapi, pyarrow, pandas, psycopg2'
if ! "$VENV/bin/python" -c "$CHECK" >/dev/null 2>&1; then
  echo "bench/python/setup.sh: making $VENV" >&2
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check \
    adbc-driver-flightsql==1.13.0 adbc-driver-manager==1.13.0 pyarrow==21.0.0 \
    pandas==2.3.3 psycopg2-binary==2.9.10
  "$VENV/bin/python" -c "$CHECK"
fi
echo "$VENV/bin/python"
