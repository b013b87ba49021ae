package clients

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// The same tables on sqlgate and on the PostgreSQL 15 oracle: a
// primary-key table with every Fluss type (PostgreSQL spells each as the
// type sqlgate shows it as, as tests/psql does) and a log table. sqlgate
// shows each table's Fluss properties as its comment; the oracle gets the
// same comments, so that REMARKS / description columns compare exactly.
const (
	introspectSqlgateDDL = `CREATE TABLE every_type (id int NOT NULL, region string NOT NULL, b boolean, ti tinyint, si smallint,
 bi bigint, f float, d double, c char(5), vc varchar(20), s string, by bytes, bin binary(4), dec decimal(12,3),
 dt date, tm time, ts timestamp(3), tsl timestamp_ltz(6), arr array<int>, m map<string, int>, r row<a int, b string>,
 PRIMARY KEY (region, id)) WITH ('bucket.num' = '4');
CREATE TABLE events (ts timestamp(6), msg string)`
	introspectPostgresDDL = `CREATE TABLE every_type (id int NOT NULL, region text NOT NULL, b boolean, ti smallint, si smallint,
 bi bigint, f real, d double precision, c char(5), vc varchar(20), s text, "by" bytea, bin bytea, dec numeric(12,3),
 dt date, tm time(0), ts timestamp(3), tsl timestamptz, arr int[], m json, r json,
 CONSTRAINT every_type_pkey PRIMARY KEY (region, id));
CREATE TABLE events (ts timestamp, msg text);
COMMENT ON TABLE every_type IS 'fluss primary-key table, 4 buckets, bucket key (region, id)';
COMMENT ON TABLE events IS 'fluss log table, 1 bucket'`
)

// oraclePair is an in-process sqlgate and a throwaway PostgreSQL 15 holding
// the same tables; on both the tables belong to a superuser "sqlgate" in a
// database "sqlgate", so that owner and catalog columns compare equal.
type oraclePair struct {
	sgHost, sgPort string
	pgHost, pgPort string
}

// sgURL and pgURL are libpq URLs for user sqlgate, database sqlgate.
func (p oraclePair) sgURL() string {
	return "postgres://sqlgate@" + p.sgHost + ":" + p.sgPort + "/sqlgate?sslmode=disable"
}
func (p oraclePair) pgURL() string {
	return "postgres://sqlgate@" + p.pgHost + ":" + p.pgPort + "/sqlgate?sslmode=disable"
}

// startOraclePair starts both servers and creates the tables on each.
func startOraclePair(t *testing.T) oraclePair {
	t.Helper()
	pg := pgtest.Start(t)
	srv := startServer(t)
	var p oraclePair
	p.sgHost, p.sgPort = hostPort(t, srv.Addr().String())
	p.pgHost, p.pgPort = "127.0.0.1", fmt.Sprint(pg.Port())
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// sqlgate's one role is its bootstrap superuser (OID 10), owner of the
	// system schemas and of the tables; the oracle's bootstrap superuser is
	// renamed from postgres to sqlgate (from a helper role, since a session
	// cannot rename its own role) so that owners and ACLs compare equal.
	admin := connectPgx(t, pg.ConnString())
	setup := func(conn *pgx.Conn, stmts ...string) {
		for _, stmt := range stmts {
			if _, err := conn.Exec(ctx, stmt); err != nil {
				t.Fatalf("PostgreSQL setup %s: %v", stmt, err)
			}
		}
	}
	setup(admin, "CREATE ROLE rename_helper SUPERUSER LOGIN")
	helper := connectPgx(t, strings.Replace(pg.ConnString(), "postgres://postgres@", "postgres://rename_helper@", 1))
	admin.Close(ctx)
	setup(helper, "ALTER ROLE postgres RENAME TO sqlgate", "CREATE DATABASE sqlgate OWNER sqlgate")
	helper.Close(ctx)
	boot := connectPgx(t, p.pgURL())
	setup(boot, "DROP ROLE rename_helper")
	boot.Close(ctx)
	for _, side := range []struct {
		url, ddl string
	}{{p.pgURL(), introspectPostgresDDL}, {p.sgURL(), introspectSqlgateDDL}} {
		conn, err := pgx.Connect(ctx, side.url)
		if err != nil {
			t.Fatal(err)
		}
		for _, stmt := range strings.Split(side.ddl, ";\n") {
			if _, err := conn.Exec(ctx, stmt); err != nil {
				conn.Close(ctx)
				t.Fatalf("%s on %s: %v", stmt, side.url, err)
			}
		}
		conn.Close(ctx)
	}
	return p
}
