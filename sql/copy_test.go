package sql

import (
	"reflect"
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

func TestParseCopy(t *testing.T) {
	text := func(c CopyStmt) *CopyStmt {
		c.Format, c.Delimiter, c.Null = "text", "\t", `\N`
		return &c
	}
	csv := func(c CopyStmt) *CopyStmt {
		c.Format = "csv"
		if c.Delimiter == "" {
			c.Delimiter = ","
		}
		if c.Quote == "" {
			c.Quote = `"`
		}
		if c.Escape == "" {
			c.Escape = c.Quote
		}
		return &c
	}
	tests := []struct {
		in   string
		want *CopyStmt
	}{
		{"COPY t FROM STDIN", text(CopyStmt{Table: "t", From: true})},
		{"copy public.T (A, \"b\") from stdin", text(CopyStmt{Schema: "public", Table: "t", Columns: []string{"a", "b"}, From: true})},
		{`copy "customers" ( "id", "name" ) from stdin binary;`, &CopyStmt{Table: "customers", Columns: []string{"id", "name"}, From: true, Format: "binary"}},
		{"COPY BINARY t FROM STDIN", &CopyStmt{Table: "t", From: true, Format: "binary"}},
		{"COPY t TO STDOUT WITH CSV HEADER", csv(CopyStmt{Table: "t", Header: true})},
		{"COPY t FROM STDIN WITH (FORMAT csv, HEADER, DELIMITER ';', NULL 'NULL', QUOTE '''', ESCAPE '\\')",
			csv(CopyStmt{Table: "t", From: true, Header: true, Delimiter: ";", Null: "NULL", Quote: "'", Escape: `\`})},
		{"COPY t FROM STDIN (FORMAT 'text', HEADER false)", text(CopyStmt{Table: "t", From: true})},
		{"COPY t FROM STDIN DELIMITER ',' NULL AS ''", &CopyStmt{Table: "t", From: true, Format: "text", Delimiter: ",", Null: ""}},
		{"COPY t FROM STDIN CSV QUOTE AS '|'", csv(CopyStmt{Table: "t", From: true, Quote: "|"})},
		{"COPY (SELECT a, (b) FROM t WHERE a > 1) TO STDOUT (FORMAT binary)", &CopyStmt{Query: "SELECT a, (b) FROM t WHERE a > 1", QueryOffset: 6, Format: "binary"}},
		// server-side files (the engine decides who may, and where)
		{"COPY t FROM '/etc/passwd'", text(CopyStmt{Table: "t", From: true, File: "/etc/passwd"})},
		{"COPY t FROM 'in/t.parquet' (FORMAT parquet)", &CopyStmt{Table: "t", From: true, File: "in/t.parquet", Format: "parquet"}},
		{"COPY (SELECT 1) TO E'out/x\\\\.arrow' WITH (FORMAT 'Arrow')", &CopyStmt{Query: "SELECT 1", QueryOffset: 6, File: `out/x\.arrow`, Format: "arrow"}},
		{"COPY t (a) TO 't.csv' CSV HEADER", csv(CopyStmt{Table: "t", Columns: []string{"a"}, File: "t.csv", Header: true})},
	}
	p := NewParser()
	for _, tt := range tests {
		stmts, err := p.Parse(tt.in)
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		if len(stmts) != 1 || stmts[0].Kind != Copy {
			t.Errorf("%s: got %d statements, kind %v", tt.in, len(stmts), stmts[0].Kind)
			continue
		}
		if !reflect.DeepEqual(stmts[0].Copy, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.in, stmts[0].Copy, tt.want)
		}
	}
}

func TestParseCopyErrors(t *testing.T) {
	tests := []struct {
		in   string
		code sqlerr.Code
	}{
		{"COPY t TO PROGRAM 'ls'", sqlerr.FeatureNotSupported},
		{"COPY t FROM STDIN (FORMAT parquet)", sqlerr.FeatureNotSupported},
		{"COPY t TO 'x.parquet' (FORMAT parquet, HEADER)", sqlerr.SyntaxError},
		{"COPY t TO 'x.arrow' (FORMAT arrow, QUOTE '\"')", sqlerr.FeatureNotSupported},
		{"COPY t FROM STDOUT", sqlerr.SyntaxError},
		{"COPY (SELECT 1) FROM STDIN", sqlerr.SyntaxError},
		{"COPY t", sqlerr.SyntaxError},
		{"COPY t (a, a) FROM STDIN", sqlerr.DuplicateColumn},
		{"COPY t FROM STDIN (FORMAT xml)", sqlerr.InvalidParameterValue},
		{"COPY t FROM STDIN (FORMAT csv, FORMAT text)", sqlerr.SyntaxError},
		{"COPY t FROM STDIN (FORMAT binary, DELIMITER ',')", sqlerr.SyntaxError},
		{"COPY t FROM STDIN (QUOTE '\"')", sqlerr.FeatureNotSupported},
		{"COPY t FROM STDIN (DELIMITER ',,')", sqlerr.FeatureNotSupported},
		{"COPY t FROM STDIN (FORMAT csv, DELIMITER '\"')", sqlerr.InvalidParameterValue},
		{"COPY t FROM STDIN (DELIMITER ',', NULL 'a,b')", sqlerr.InvalidParameterValue},
		{"COPY t FROM STDIN (DELIMITER '\\')", sqlerr.InvalidParameterValue},
		{"COPY t FROM STDIN (FORCE_QUOTE (a))", sqlerr.FeatureNotSupported},
		{"COPY t FROM STDIN extra", sqlerr.SyntaxError},
	}
	p := NewParser()
	for _, tt := range tests {
		_, err := p.Parse(tt.in)
		e := sqlerr.As(err)
		if e == nil || e.Code != tt.code {
			t.Errorf("%s: got %v, want %s", tt.in, err, tt.code)
		}
	}
}
