package difftest

import (
	"fmt"
	"strings"
)

// Column is one column of a fixture table.
type Column struct {
	Name string
	Type Type
	DDL  string // the column's type as written in CREATE TABLE
}

// Table is one fixture table: its columns (the first is the BIGINT primary
// key `id`) and its rows as SQL literal lists.
type Table struct {
	Name    string
	Columns []Column
	Rows    [][]string
}

// Schema is the set of fixture tables, created identically on both systems.
type Schema struct {
	Tables []Table
}

// table returns the named table.
func (s *Schema) table(name string) (Table, bool) {
	for _, t := range s.Tables {
		if t.Name == name {
			return t, true
		}
	}
	return Table{}, false
}

// SetupStatements returns the DDL and INSERTs that build the fixture.
func (s *Schema) SetupStatements() []string {
	var out []string
	for _, t := range s.Tables {
		cols := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = c.Name + " " + c.DDL
			if i == 0 {
				cols[i] += " PRIMARY KEY"
			}
		}
		out = append(out, fmt.Sprintf("DROP TABLE IF EXISTS %s", t.Name))
		out = append(out, fmt.Sprintf("CREATE TABLE %s (%s)", t.Name, strings.Join(cols, ", ")))
		for _, r := range t.Rows {
			out = append(out, fmt.Sprintf("INSERT INTO %s VALUES (%s)", t.Name, strings.Join(r, ", ")))
		}
	}
	return out
}

// DefaultSchema is the fixture: t1 holds every scalar type with NULLs and
// extreme values (integer bounds, NaN, ±Infinity, -0, the float extremes,
// empty strings), t2 is a narrower table to join with (overlapping and
// distinct values), and t0 is empty.
//
// Dates stay inside 1678..2261 on purpose: extreme dates come from the
// generator's rare literals (extremeDateTexts) rather than from every query
// over the fixture.
func DefaultSchema() *Schema {
	t1 := Table{
		Name: "t1",
		Columns: []Column{
			{"id", Int8, "BIGINT"},
			{"i", Int4, "INT"},
			{"s", Int2, "SMALLINT"},
			{"b", Int8, "BIGINT"},
			{"d", Float8, "DOUBLE PRECISION"},
			{"r", Float4, "REAL"},
			{"f", Bool, "BOOLEAN"},
			{"t", Text, "TEXT"},
			{"v", Varchar, "VARCHAR(10)"},
			{"n", Numeric, "DECIMAL(10,2)"},
			{"dt", Date, "DATE"},
			{"ts", Timestamp, "TIMESTAMP"},
		},
		Rows: [][]string{
			{"1", "1", "2", "3", "1.5", "2.5", "true", "'abc'", "'xy'", "12.34", "'2024-01-02'", "'2024-01-02 03:04:05'"},
			{"2", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL", "NULL"},
			{"3", "2147483647", "32767", "9223372036854775807", "'NaN'", "'Infinity'", "false", "''", "''", "99999999.99", "'1970-01-01'", "'1999-12-31 23:59:59.999999'"},
			{"4", "-2147483648", "-32768", "-9223372036854775808", "'-0'", "'-Infinity'", "true", "'A b'", "'Z'", "-99999999.99", "'2000-02-29'", "'2261-12-31 00:00:00'"},
			{"5", "0", "0", "0", "'-Infinity'", "'NaN'", "NULL", "'x''y'", "NULL", "0", "'1900-01-01'", "'1900-01-01 00:00:00'"},
			{"6", "-1", "-1", "-1", "'Infinity'", "'-0'", "false", "'ABC'", "'abc'", "-0.01", "'1999-12-31'", "'2000-01-01 00:00:00'"},
			{"7", "7", "7", "7", "1.7976931348623157e308", "3.4028235e38", "true", "'abc'", "'abcdefghij'", "7.50", "'2024-01-02'", "'2024-01-02 00:00:00'"},
			{"8", "-7", "100", "4294967296", "5e-324", "1e-45", "false", "'  pad '", "' '", "0.50", "'1678-01-01'", "'1678-01-01 12:00:00.5'"},
			{"9", "42", "NULL", "-42", "-2.5", "0.1", "NULL", "'a%b_c'", "'%'", "42.42", "NULL", "'2024-06-15 08:30:00'"},
			{"10", "2", "-2", "2", "0", "0", "true", "'b'", "'B'", "-1.25", "'2024-01-03'", "NULL"},
			{"11", "NULL", "3", "NULL", "0.1", "NULL", "false", "'a'", "NULL", "NULL", "'2024-01-02'", "'2024-01-02 03:04:05'"},
			{"12", "3", "NULL", "3", "3", "-1.5", "NULL", "NULL", "'xy'", "3.00", "'2261-12-31'", "'1970-01-01 00:00:00'"},
		},
	}
	t2 := Table{
		Name: "t2",
		Columns: []Column{
			{"id", Int8, "BIGINT"},
			{"i", Int4, "INT"},
			{"b", Int8, "BIGINT"},
			{"d", Float8, "DOUBLE PRECISION"},
			{"t", Text, "TEXT"},
			{"n", Numeric, "DECIMAL(12,3)"},
			{"dt", Date, "DATE"},
			{"f", Bool, "BOOLEAN"},
		},
		Rows: [][]string{
			{"1", "1", "1", "1.5", "'abc'", "1.000", "'2024-01-02'", "true"},
			{"3", "2147483647", "NULL", "'NaN'", "''", "-0.001", "'1970-01-01'", "false"},
			{"5", "0", "0", "'-0'", "'ABC'", "12.340", "NULL", "NULL"},
			{"20", "NULL", "20", "NULL", "NULL", "NULL", "'2000-02-29'", "true"},
			{"21", "7", "-9223372036854775808", "0", "'abc'", "7.500", "'1999-12-31'", "false"},
			{"22", "1", "3", "'Infinity'", "'b'", "999999999.999", "'2024-01-02'", "true"},
		},
	}
	t0 := Table{
		Name: "t0",
		Columns: []Column{
			{"id", Int8, "BIGINT"},
			{"i", Int4, "INT"},
			{"d", Float8, "DOUBLE PRECISION"},
			{"t", Text, "TEXT"},
		},
	}
	return &Schema{Tables: []Table{t1, t2, t0}}
}
