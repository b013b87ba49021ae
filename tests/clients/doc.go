// Package clients runs real PostgreSQL drivers against an in-process sqlgate:
// pgx (every query-exec mode, Batch, CopyFrom), lib/pq, psql (\copy in and
// out), pgJDBC, psycopg2 and node-postgres. Each round-trips the scalar types
// sqlgate supports through parameterised INSERTs and SELECTs, with NULLs and
// extreme values. A driver that is not installed fails its test: .ci/run
// installs them (Debian packages and npm).
//
// It owns only tests; it must not reach any address but loopback.
package clients
