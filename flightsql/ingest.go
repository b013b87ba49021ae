package flightsql

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// DoPutCommandStatementIngest writes the client's Arrow batches into a
// table (created first from their schema when missing and the client asks
// for it; replaced by one made from it when the client asks for that,
// ingestreplace.go) as one COPY FROM of all its columns: the same privilege
// check (INSERT), column defaults, CHECK constraints, transaction and
// single atomic write. Each batch first passes seed 000's rules
// (fluss.ValidateRecord): the table's column names in its order,
// representation-only differences converted, value-changing ones and
// NULLs in NOT NULL columns rejected naming the column. Any rejected
// batch fails the whole ingest and nothing is written.
func (s *Server) DoPutCommandStatementIngest(ctx context.Context, cmd afsql.StatementIngest, rdr flight.MessageReader) (int64, error) {
	c := connOf(ctx)
	if cmd.GetTemporary() {
		return 0, sqlerr.NotSupported("ingest into a temporary table")
	}
	if cat := cmd.GetCatalog(); cat != "" && cat != catalogName {
		return 0, sqlerr.New(sqlerr.InvalidCatalogName, "catalog \"%s\" does not exist", cat)
	}
	if cmd.GetTable() == "" {
		return 0, sqlerr.New(sqlerr.InvalidParameterValue, "ingest names no table")
	}
	// No options (or unspecified ones, which the protocol says servers
	// should refuse but older clients send) mean append to a table that
	// must exist, what ingest did before the options existed.
	ifExists, ifMissing := afsql.TableDefinitionOptionsTableExistsOptionAppend, afsql.TableDefinitionOptionsTableNotExistOptionFail
	if opts := cmd.GetTableDefinitionOptions(); opts != nil {
		if opts.IfExists != afsql.TableDefinitionOptionsTableExistsOptionUnspecified {
			ifExists = opts.IfExists
		}
		if opts.IfNotExist != afsql.TableDefinitionOptionsTableNotExistOptionUnspecified {
			ifMissing = opts.IfNotExist
		}
	}
	sl, err := c.slotFor(cmd.GetTransactionId())
	if err != nil {
		return 0, err
	}
	if err := sl.acquire(ctx); err != nil {
		return 0, err
	}
	defer sl.release()
	target := ingestTarget{schema: cmd.GetSchema(), table: cmd.GetTable()}
	cp, err := prepareCopy(ctx, sl, target)
	switch {
	case sqlerr.CodeOf(err) == sqlerr.UndefinedTable && ifMissing == afsql.TableDefinitionOptionsTableNotExistOptionCreate:
		if err = s.createForIngest(ctx, sl, target, rdr.Schema()); err != nil {
			return 0, err
		}
		if cp, err = prepareCopy(ctx, sl, target); err != nil {
			return 0, err
		}
	case err != nil:
		return 0, err
	case ifExists == afsql.TableDefinitionOptionsTableExistsOptionFail:
		return 0, failed(sl, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", cmd.GetTable()))
	case ifExists == afsql.TableDefinitionOptionsTableExistsOptionReplace:
		if target.schema == "" {
			// The table found over the search path: its replacement
			// goes to the same schema, not to the one CREATE picks.
			if target.schema, err = namespaceOf(ctx, sl, cp); err != nil {
				return 0, err
			}
		}
		return s.replaceByIngest(ctx, c, sl, target, rdr)
	}
	return copyIn(ctx, sl, cp, target, rdr)
}

// ingestTarget is the table an ingest names.
type ingestTarget struct{ schema, table string }

// sql is the target as a (qualified) SQL name.
func (t ingestTarget) sql() string {
	if t.schema != "" {
		return quoteIdent(t.schema) + "." + quoteIdent(t.table)
	}
	return quoteIdent(t.table)
}

// prepareCopy prepares COPY target FROM STDIN on sl (acquired).
func prepareCopy(ctx context.Context, sl *slot, target ingestTarget) (pgwire.CopyStatement, error) {
	stmts, err := prepare(ctx, sl, "COPY "+target.sql()+" FROM STDIN")
	if err != nil {
		return nil, err
	}
	cp, ok := stmts[0].(pgwire.CopyStatement)
	if len(stmts) != 1 || !ok || !cp.CopyIn() {
		return nil, failed(sl, sqlerr.New(sqlerr.InternalError, "COPY FROM did not prepare as a COPY"))
	}
	return cp, nil
}

// copyIn runs the prepared COPY with the client's batches, each checked
// against the table's columns first, and returns the rows written.
func copyIn(ctx context.Context, sl *slot, cp pgwire.CopyStatement, target ingestTarget, rdr flight.MessageReader) (int64, error) {
	info := fluss.TableInfo{Path: fluss.TablePath{Database: target.schema, Table: target.table}}
	for _, col := range cp.CopyColumns() {
		info.Descriptor.Schema.Columns = append(info.Descriptor.Schema.Columns, fluss.Column{Name: col.Name, Type: col.Type})
	}
	sctx, end := startStatement(ctx, sl.sess, cp)
	tag, err := cp.CopyFrom(sctx, &ingestSource{rdr: rdr, info: info})
	err = end(tag, err)
	if err != nil {
		return 0, failed(sl, timeoutError(sctx, err))
	}
	return pgwire.TagRows(tag), nil
}

// createForIngest creates the table an ingest names from its batches'
// schema (ingestcreate.go). In a transaction block the table is created at
// once, as any DDL in a block is (engine: txddl.go).
func (s *Server) createForIngest(ctx context.Context, sl *slot, target ingestTarget, schema *arrow.Schema) error {
	if schema == nil {
		return sqlerr.New(sqlerr.ProtocolViolation, "the ingest stream has no schema")
	}
	ddl, err := createTableSQL(target.sql(), schema)
	if err != nil {
		return err
	}
	return failed(sl, runSQL(ctx, sl.sess, ddl))
}

// ingestSource hands COPY the client's batches, each validated and
// converted to the table's Arrow schema.
type ingestSource struct {
	rdr  flight.MessageReader
	info fluss.TableInfo
}

func (src *ingestSource) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !src.rdr.Next() {
		if err := src.rdr.Err(); err != nil {
			return nil, sqlerr.Wrap(err, sqlerr.ProtocolViolation, "reading the Arrow stream failed")
		}
		return nil, nil
	}
	return fluss.ValidateRecord(src.info, src.rdr.RecordBatch())
}

// quoteIdent quotes a name as a SQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
