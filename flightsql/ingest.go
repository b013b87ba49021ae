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
// for it) as one COPY FROM of all its columns: the same privilege
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
	opts := cmd.GetTableDefinitionOptions()
	if opts != nil {
		switch opts.IfExists {
		case afsql.TableDefinitionOptionsTableExistsOptionReplace:
			return 0, sqlerr.NotSupported("ingest replacing a table").WithHint("TRUNCATE the table, then ingest with append.")
		case afsql.TableDefinitionOptionsTableExistsOptionFail:
			// checked once the table is found
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
	created := false
	target := quoteIdent(cmd.GetTable())
	if sch := cmd.GetSchema(); sch != "" {
		target = quoteIdent(sch) + "." + target
	}
	copySQL := "COPY " + target + " FROM STDIN"
	stmts, err := prepare(ctx, sl, copySQL)
	if err != nil && sqlerr.CodeOf(err) == sqlerr.UndefinedTable && opts != nil && opts.IfNotExist == afsql.TableDefinitionOptionsTableNotExistOptionCreate {
		if err = s.createForIngest(ctx, sl, target, rdr.Schema()); err == nil {
			stmts, err = prepare(ctx, sl, copySQL)
			created = true
		}
	}
	if err != nil {
		return 0, err
	}
	cp, ok := stmts[0].(pgwire.CopyStatement)
	if len(stmts) != 1 || !ok || !cp.CopyIn() {
		return 0, sqlerr.New(sqlerr.InternalError, "COPY FROM did not prepare as a COPY")
	}
	if !created && opts != nil && opts.IfExists == afsql.TableDefinitionOptionsTableExistsOptionFail {
		return 0, failed(sl, sqlerr.New(sqlerr.DuplicateTable, "relation \"%s\" already exists", cmd.GetTable()))
	}
	info := fluss.TableInfo{Path: fluss.TablePath{Database: cmd.GetSchema(), Table: cmd.GetTable()}}
	for _, col := range cp.CopyColumns() {
		info.Descriptor.Schema.Columns = append(info.Descriptor.Schema.Columns, fluss.Column{Name: col.Name, Type: col.Type})
	}
	sctx, cancel := statementContext(ctx, sl.sess)
	defer cancel()
	tag, err := cp.CopyFrom(sctx, &ingestSource{rdr: rdr, info: info})
	if err != nil {
		return 0, failed(sl, timeoutError(sctx, err))
	}
	return tagCount(tag), nil
}

// createForIngest creates the table an ingest names from its batches'
// schema (ingestcreate.go). In a transaction block the table is created at
// once, as any DDL in a block is (engine: txddl.go).
func (s *Server) createForIngest(ctx context.Context, sl *slot, target string, schema *arrow.Schema) error {
	if schema == nil {
		return sqlerr.New(sqlerr.ProtocolViolation, "the ingest stream has no schema")
	}
	ddl, err := createTableSQL(target, schema)
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
