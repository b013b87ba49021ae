package flightsql

import (
	"context"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/flight"
	afsql "github.com/apache/arrow-go/v18/arrow/flight/flightsql"
	"github.com/apache/arrow-go/v18/arrow/flight/flightsql/schema_ref"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// catalogName is the one catalog: the database every session is in.
const catalogName = "sqlgate"

// The catalog commands are SQL over information_schema, run on the
// connection's session, so that they list what the user may see, as
// psql's \d does on the PostgreSQL side.

// query runs text with params on the connection's session and returns its
// rows as strings and int64s (nil for NULL).
func (s *Server) query(ctx context.Context, c *conn, text string, params ...any) ([][]any, error) {
	sl := c.main
	if err := sl.acquire(ctx); err != nil {
		return nil, err
	}
	defer sl.release()
	return queryOn(ctx, sl, text, params...)
}

// queryOn is query on sl (acquired).
func queryOn(ctx context.Context, sl *slot, text string, params ...any) (_ [][]any, err error) {
	stmts, err := prepare(ctx, sl, text)
	if err != nil {
		return nil, err
	}
	sctx, end := startStatement(ctx, sl.sess, stmts[0])
	var tag string
	defer func() { err = end(tag, err) }()
	res, err := stmts[0].Execute(sctx, params)
	if err != nil {
		return nil, failed(sl, timeoutError(sctx, err))
	}
	defer res.Close()
	var rows [][]any
	for {
		b, err := res.Next(sctx)
		if err != nil {
			return nil, failed(sl, timeoutError(sctx, err))
		}
		if b == nil {
			tag = res.Tag()
			return rows, nil
		}
		for r := 0; r < int(b.NumRows()); r++ {
			row := make([]any, b.NumCols())
			for i, col := range b.Columns() {
				if v, err := paramValue(col, r); err == nil {
					row[i] = v
				}
			}
			rows = append(rows, row)
		}
		b.Release()
	}
}

// one sends a single record as a stream.
func one(rec arrow.RecordBatch) <-chan flight.StreamChunk {
	ch := make(chan flight.StreamChunk, 1)
	ch <- flight.StreamChunk{Data: rec}
	close(ch)
	return ch
}

// build makes a record of schema from rows of Go values (string, int64,
// []byte, nil).
func build(schema *arrow.Schema, rows [][]any) arrow.RecordBatch {
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, row := range rows {
		for i, v := range row {
			fb := b.Field(i)
			if v == nil {
				fb.AppendNull()
				continue
			}
			switch fb := fb.(type) {
			case *array.StringBuilder:
				fb.Append(v.(string))
			case *array.BinaryBuilder:
				fb.Append(v.([]byte))
			case *array.Int32Builder:
				fb.Append(int32(v.(int64)))
			default:
				fb.AppendNull()
			}
		}
	}
	return b.NewRecordBatch()
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// pattern is a Flight SQL filter pattern (SQL LIKE syntax), % when absent.
func pattern(p *string) string {
	if p == nil {
		return "%"
	}
	return *p
}

// otherCatalog reports whether a catalog filter excludes ours.
func otherCatalog(cat *string) bool {
	return cat != nil && *cat != "" && *cat != catalogName
}

func (s *Server) GetFlightInfoCatalogs(_ context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(schema_ref.Catalogs, desc, desc.Cmd), nil
}

func (s *Server) DoGetCatalogs(context.Context) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return schema_ref.Catalogs, one(build(schema_ref.Catalogs, [][]any{{catalogName}})), nil
}

func (s *Server) GetFlightInfoSchemas(_ context.Context, _ afsql.GetDBSchemas, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(schema_ref.DBSchemas, desc, desc.Cmd), nil
}

func (s *Server) DoGetDBSchemas(ctx context.Context, cmd afsql.GetDBSchemas) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	var out [][]any
	if !otherCatalog(cmd.GetCatalog()) {
		rows, err := s.query(ctx, connOf(ctx), "SELECT schema_name::text FROM information_schema.schemata WHERE schema_name LIKE $1 ORDER BY 1",
			pattern(cmd.GetDBSchemaFilterPattern()))
		if err != nil {
			return nil, nil, err
		}
		for _, r := range rows {
			out = append(out, []any{catalogName, r[0]})
		}
	}
	return schema_ref.DBSchemas, one(build(schema_ref.DBSchemas, out)), nil
}

func tablesSchema(cmd afsql.GetTables) *arrow.Schema {
	if cmd.GetIncludeSchema() {
		return schema_ref.TablesWithIncludedSchema
	}
	return schema_ref.Tables
}

func (s *Server) GetFlightInfoTables(_ context.Context, cmd afsql.GetTables, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(tablesSchema(cmd), desc, desc.Cmd), nil
}

// tableType is information_schema's table_type as Flight SQL clients
// expect it ("TABLE", "VIEW", "LOCAL TEMPORARY").
func tableType(t string) string {
	if t == "BASE TABLE" {
		return "TABLE"
	}
	return t
}

func (s *Server) DoGetTables(ctx context.Context, cmd afsql.GetTables) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	schema := tablesSchema(cmd)
	c := connOf(ctx)
	var out [][]any
	if !otherCatalog(cmd.GetCatalog()) {
		rows, err := s.query(ctx, c, "SELECT table_schema::text, table_name::text, table_type::text FROM information_schema.tables "+
			"WHERE table_schema LIKE $1 AND table_name LIKE $2 ORDER BY 1, 2",
			pattern(cmd.GetDBSchemaFilterPattern()), pattern(cmd.GetTableNameFilterPattern()))
		if err != nil {
			return nil, nil, err
		}
		want := map[string]bool{}
		for _, t := range cmd.GetTableTypes() {
			want[strings.ToUpper(t)] = true
		}
		for _, r := range rows {
			typ := tableType(str(r[2]))
			if len(want) > 0 && !want[typ] {
				continue
			}
			row := []any{catalogName, r[0], r[1], typ}
			if cmd.GetIncludeSchema() {
				ts, err := s.tableSchema(ctx, c, str(r[0]), str(r[1]))
				if err != nil {
					return nil, nil, err
				}
				row = append(row, serializeSchema(ts))
			}
			out = append(out, row)
		}
	}
	return schema, one(build(schema, out)), nil
}

// tableSchema is the Arrow schema of SELECT * FROM the table: what a query
// of it returns.
func (s *Server) tableSchema(ctx context.Context, c *conn, schemaName, table string) (*arrow.Schema, error) {
	sl := c.main
	if err := sl.acquire(ctx); err != nil {
		return nil, err
	}
	defer sl.release()
	stmts, err := prepare(ctx, sl, "SELECT * FROM "+quoteIdent(schemaName)+"."+quoteIdent(table))
	if err != nil {
		return nil, err
	}
	return schemaOf(stmts[0].Columns()), nil
}

func (s *Server) GetFlightInfoTableTypes(_ context.Context, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(schema_ref.TableTypes, desc, desc.Cmd), nil
}

func (s *Server) DoGetTableTypes(context.Context) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	rows := [][]any{{"LOCAL TEMPORARY"}, {"TABLE"}, {"VIEW"}}
	return schema_ref.TableTypes, one(build(schema_ref.TableTypes, rows)), nil
}

func (s *Server) GetFlightInfoPrimaryKeys(_ context.Context, _ afsql.TableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(schema_ref.PrimaryKeys, desc, desc.Cmd), nil
}

func (s *Server) DoGetPrimaryKeys(ctx context.Context, ref afsql.TableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	var out [][]any
	if !otherCatalog(ref.Catalog) {
		text := "SELECT k.table_schema::text, k.column_name::text, k.ordinal_position::bigint, k.constraint_name::text " +
			"FROM information_schema.table_constraints c JOIN information_schema.key_column_usage k " +
			"ON k.constraint_name = c.constraint_name AND k.table_schema = c.table_schema AND k.table_name = c.table_name " +
			"WHERE c.constraint_type = 'PRIMARY KEY' AND c.table_name = $1 AND c.table_schema = "
		params := []any{ref.Table}
		if ref.DBSchema != nil {
			text += "$2"
			params = append(params, *ref.DBSchema)
		} else {
			text += "current_schema()"
		}
		rows, err := s.query(ctx, connOf(ctx), text+" ORDER BY 3", params...)
		if err != nil {
			return nil, nil, err
		}
		for _, r := range rows {
			out = append(out, []any{catalogName, r[0], ref.Table, r[1], r[2], r[3]})
		}
	}
	return schema_ref.PrimaryKeys, one(build(schema_ref.PrimaryKeys, out)), nil
}

// sqlgate has no foreign keys: the key commands answer no rows.

func (s *Server) GetFlightInfoExportedKeys(_ context.Context, _ afsql.TableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(schema_ref.ExportedKeys, desc, desc.Cmd), nil
}

func (s *Server) DoGetExportedKeys(context.Context, afsql.TableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return schema_ref.ExportedKeys, one(build(schema_ref.ExportedKeys, nil)), nil
}

func (s *Server) GetFlightInfoImportedKeys(_ context.Context, _ afsql.TableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(schema_ref.ImportedKeys, desc, desc.Cmd), nil
}

func (s *Server) DoGetImportedKeys(context.Context, afsql.TableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return schema_ref.ImportedKeys, one(build(schema_ref.ImportedKeys, nil)), nil
}

func (s *Server) GetFlightInfoCrossReference(_ context.Context, _ afsql.CrossTableRef, desc *flight.FlightDescriptor) (*flight.FlightInfo, error) {
	return flightInfo(schema_ref.CrossReference, desc, desc.Cmd), nil
}

func (s *Server) DoGetCrossReference(context.Context, afsql.CrossTableRef) (*arrow.Schema, <-chan flight.StreamChunk, error) {
	return schema_ref.CrossReference, one(build(schema_ref.CrossReference, nil)), nil
}

// registerSQLInfo fills GetSqlInfo's answers (served by arrow-go's
// BaseServer).
func (s *Server) registerSQLInfo() error {
	for id, v := range map[afsql.SqlInfo]any{
		afsql.SqlInfoFlightSqlServerName:                        "sqlgate",
		afsql.SqlInfoFlightSqlServerVersion:                     s.cfg.ServerVersion,
		afsql.SqlInfoFlightSqlServerArrowVersion:                "18",
		afsql.SqlInfoFlightSqlServerReadOnly:                    false,
		afsql.SqlInfoFlightSqlServerSql:                         true,
		afsql.SqlInfoFlightSqlServerSubstrait:                   false,
		afsql.SqlInfoFlightSqlServerTransaction:                 int32(afsql.SqlTransactionTransaction),
		afsql.SqlInfoFlightSqlServerCancel:                      true,
		afsql.SqlInfoFlightSqlServerBulkIngestion:               true,
		afsql.SqlInfoFlightSqlServerIngestTransactionsSupported: true,
		afsql.SqlInfoFlightSqlServerStatementTimeout:            int32(0),
		afsql.SqlInfoFlightSqlServerTransactionTimeout:          int32(0),
		afsql.SqlInfoIdentifierQuoteChar:                        `"`,
		afsql.SqlInfoDDLCatalog:                                 false,
		afsql.SqlInfoDDLSchema:                                  true,
		afsql.SqlInfoDDLTable:                                   true,
		afsql.SqlInfoTransactionsSupported:                      true,
	} {
		if err := s.RegisterSqlInfo(id, v); err != nil {
			return sqlerr.Wrap(err, sqlerr.InternalError, "registering SQL info %d", id)
		}
	}
	return nil
}
