package flightsql

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow/flight"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// Ingest with "replace" (Flight SQL's TABLE_EXISTS_OPTION_REPLACE, ADBC's
// mode="replace"): the table is dropped and created again from the
// batches' schema, then loaded. PostgreSQL's ADBC driver runs DROP, CREATE
// and COPY in one transaction; Fluss's catalog is not transactional, so
// sqlgate keeps the old table until the new one is loaded, as dbt's
// materializations do:
//
//  1. CREATE TABLE t__ingest_XXXXXXXX from the batches' schema
//     (ingestcreate.go) and COPY the batches into it, under every rule
//     of an ordinary ingest. A rejected batch (or any failure) drops it
//     again: the old table is untouched.
//  2. DROP TABLE t (the owner alone may, as in PostgreSQL; views over t
//     refuse it, 2BP01), then ALTER TABLE t__ingest_XXXXXXXX RENAME TO t,
//     one catalog write on the embedded store. Between the two the name
//     is missing for the time of one catalog write.
//
// In a transaction block the DDL takes effect at once, as any DDL there
// does (engine: txddl.go), and the rows follow the rename until COMMIT.
//
// A Fluss cluster cannot rename a table (Config.NoRename): there step 2
// drops the table, creates it again and copies the staging table's rows
// into it (INSERT ... SELECT), then drops the staging table, so the name is
// missing, then empty, for the time of the copy. In a transaction block
// the staging table's rows are the block's until COMMIT and cannot be
// copied out and dropped, so there the table is dropped, created again and
// loaded: a rejected batch then leaves it empty, which the error says.

// stagingSuffix is the length of "__ingest_" and 8 hex digits.
const stagingSuffix = len("__ingest_") + 8

// maxIdentifier is PostgreSQL's longest identifier (NAMEDATALEN - 1).
const maxIdentifier = 63

// replaceByIngest replaces the existing table target by one made from the
// batches' schema and loaded with them (see above). sl is acquired.
func (s *Server) replaceByIngest(ctx context.Context, c *conn, sl *slot, target ingestTarget, rdr flight.MessageReader) (int64, error) {
	if s.cfg.NoRename && sl.sess.TxStatus() != 'I' {
		return s.recreateByIngest(ctx, sl, target, rdr)
	}
	staging := ingestTarget{schema: target.schema, table: stagingName(target.table)}
	if err := s.createForIngest(ctx, sl, staging, rdr.Schema()); err != nil {
		return 0, err
	}
	n, err := s.loadStaging(ctx, sl, staging, target, rdr)
	if err != nil {
		s.dropStaging(ctx, c, sl, staging)
		return 0, err
	}
	if !s.cfg.NoRename {
		rename := "ALTER TABLE " + staging.sql() + " RENAME TO " + quoteIdent(target.table)
		if err := failed(sl, runSQL(ctx, sl.sess, rename)); err != nil {
			return 0, withDetail(err, "Table \"%s\" was dropped; the ingested rows are in table \"%s\".", target.table, staging.table)
		}
		return n, nil
	}
	// No rename: the table is made again and the rows copied over.
	err = s.createForIngest(ctx, sl, target, rdr.Schema())
	if err == nil {
		err = failed(sl, runSQL(ctx, sl.sess, "INSERT INTO "+target.sql()+" SELECT * FROM "+staging.sql()))
	}
	if err != nil {
		return 0, withDetail(err, "Table \"%s\" was dropped; the ingested rows are in table \"%s\".", target.table, staging.table)
	}
	s.dropStaging(ctx, c, sl, staging)
	return n, nil
}

// loadStaging copies the batches into the staging table, then drops the
// table it replaces.
func (s *Server) loadStaging(ctx context.Context, sl *slot, staging, target ingestTarget, rdr flight.MessageReader) (int64, error) {
	cp, err := prepareCopy(ctx, sl, staging)
	if err != nil {
		return 0, err
	}
	n, err := copyIn(ctx, sl, cp, staging, rdr)
	if err != nil {
		return 0, err
	}
	return n, failed(sl, runSQL(ctx, sl.sess, "DROP TABLE "+target.sql()))
}

// recreateByIngest is replace in a transaction block on a store that
// cannot rename: drop, create, load (the staging table's rows could not be
// copied out in the block and the table dropped: the block holds them).
func (s *Server) recreateByIngest(ctx context.Context, sl *slot, target ingestTarget, rdr flight.MessageReader) (int64, error) {
	if rdr.Schema() == nil {
		return 0, sqlerr.New(sqlerr.ProtocolViolation, "the ingest stream has no schema")
	}
	if _, err := createTableSQL(target.sql(), rdr.Schema()); err != nil {
		return 0, err // before the drop: a schema no table can have keeps the old one
	}
	if err := failed(sl, runSQL(ctx, sl.sess, "DROP TABLE "+target.sql())); err != nil {
		return 0, err
	}
	if err := s.createForIngest(ctx, sl, target, rdr.Schema()); err != nil {
		return 0, err
	}
	cp, err := prepareCopy(ctx, sl, target)
	if err == nil {
		var n int64
		if n, err = copyIn(ctx, sl, cp, target, rdr); err == nil {
			return n, nil
		}
	}
	return 0, withDetail(err, "Table \"%s\" was dropped and created again empty: a Fluss cluster cannot rename a table, so replace cannot load a copy first.", target.table)
}

// dropStaging drops a staging table after a failure. A failed transaction
// block refuses statements until it ends, so the table is then dropped
// through the connection's own session (autocommit); the block's rows for
// it are discarded when the block ends. Failing, it is logged: the table
// is left under its staging name.
func (s *Server) dropStaging(ctx context.Context, c *conn, sl *slot, staging ingestTarget) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
	defer cancel()
	on := sl
	if sl.sess.TxStatus() == 'E' && sl != c.main {
		if err := c.main.acquire(ctx); err != nil {
			s.log.Error("flightsql: dropping an ingest's staging table", "table", staging.table, "err", err)
			return
		}
		defer c.main.release()
		on = c.main
	}
	if err := runSQL(ctx, on.sess, "DROP TABLE IF EXISTS "+staging.sql()); err != nil {
		s.log.Error("flightsql: dropping an ingest's staging table", "table", staging.table, "err", err)
	}
}

// namespaceOf is the schema of the table a prepared COPY writes.
func namespaceOf(ctx context.Context, sl *slot, cp pgwire.CopyStatement) (string, error) {
	cols := cp.CopyColumns()
	if len(cols) == 0 {
		return "", sqlerr.New(sqlerr.InternalError, "COPY FROM prepared without columns")
	}
	rows, err := queryOn(ctx, sl, "SELECT n.nspname FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = $1", int64(cols[0].TableOID))
	if err != nil {
		return "", err
	}
	if len(rows) != 1 {
		return "", sqlerr.New(sqlerr.UndefinedTable, "the table to replace (oid %d) is gone", cols[0].TableOID)
	}
	return str(rows[0][0]), nil
}

// stagingName is a fresh table name beside table: table (cut to leave
// room) and "__ingest_" with 8 random hex digits.
func stagingName(table string) string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	keep := maxIdentifier - stagingSuffix
	if len(table) > keep {
		table = table[:keep]
		for !utf8.ValidString(table) {
			table = table[:len(table)-1]
		}
	}
	return table + "__ingest_" + hex.EncodeToString(b[:])
}

// withDetail adds a detail line to err's SQL error (other errors are
// internal ones, whose text clients never see).
func withDetail(err error, format string, args ...any) error {
	e := sqlerr.As(err)
	if e == nil {
		return err
	}
	d := fmt.Sprintf(format, args...)
	if e.Detail != "" {
		d = e.Detail + "\n" + d
	}
	return e.WithDetail("%s", d)
}
