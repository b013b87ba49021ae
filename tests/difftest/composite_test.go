package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// compositeField is one attribute type random composite types draw from,
// with the values (SQL literals) its fields take.
type compositeField struct {
	typ  string
	vals []string
}

// compositeFields are the attribute types: text's values hold every
// character record_out quotes (blanks, quotes, backslashes, parentheses,
// commas) and the empty string.
var compositeFields = []compositeField{
	{"int", []string{"0", "1", "-7", "2147483647"}},
	{"bigint", []string{"42", "-9000000000"}},
	{"text", []string{"'x'", "''", "'a b'", `'q"r'`, `'p\s'`, "'(x)'", "'a,b'", "'NULL'", "' lead'"}},
	{"boolean", []string{"true", "false"}},
	{"numeric(6,3)", []string{"1.50", "-0.001", "100"}},
	{"date", []string{"'2024-02-29'", "'1999-12-31'"}},
	{"varchar(4)", []string{"'ab'", "'a )'"}},
}

// compositeValue is one random value of a composite type: the ROW
// constructor's argument list (SQL) and the fields' text (nil for NULL),
// from which text literals of the value are spelled.
type compositeValue struct {
	args  []string
	texts []*string
}

// TestCompositeDifferential makes random composite types (CREATE TYPE ...
// AS (...), one nested in another, one altered with ADD ATTRIBUTE) and
// tables whose row types have the same attributes, on sqlgate and
// PostgreSQL 15, and compares casts of ROW constructors and of text
// literals (record_in's quoting, whitespace and NULL fields, malformed
// literals with their DETAIL), field selections, comparisons, IS [NOT]
// NULL, pg_typeof and whole-row references: the same rows of the same
// types (composite OIDs mapped), or both refused with the same SQLSTATE,
// message, detail and position.
func TestCompositeDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	rng := seededRand(t, 0)
	stats := map[string]int{}
	setup := func(stmts ...string) { t.Helper(); runOnBoth(t, ctx, r, stmts...) }
	for k := 0; k < 5; k++ {
		name := fmt.Sprintf("cty%d", k)
		fields := make([]compositeField, 1+rng.IntN(4))
		var decl []string
		for i := range fields {
			fields[i] = compositeFields[rng.IntN(len(compositeFields))]
			decl = append(decl, fmt.Sprintf("f%d %s", i+1, fields[i].typ))
		}
		tbl := "tcty" + strconv.Itoa(k)
		setup(fmt.Sprintf("CREATE TYPE %s AS (%s)", name, strings.Join(decl, ", ")),
			fmt.Sprintf("CREATE TABLE %s (%s)", tbl, strings.Join(decl, ", ")))
		if rng.IntN(2) == 0 {
			// a type altered after it was made
			f := compositeFields[rng.IntN(len(compositeFields))]
			fields = append(fields, f)
			setup(fmt.Sprintf("ALTER TYPE %s ADD ATTRIBUTE f%d %s", name, len(fields), f.typ),
				fmt.Sprintf("ALTER TABLE %s ADD COLUMN f%d %s", tbl, len(fields), f.typ))
		}
		nest := "nest" + strconv.Itoa(k)
		setup(fmt.Sprintf("CREATE TYPE %s AS (inner_v %s, n int)", nest, name))
		// sqlgate's composite OIDs read as PostgreSQL's, a refusal's DETAIL compared too
		rule := tallyRule{ordered: true, placed: everyCode, detail: true, oids: typeOIDMap(t, ctx, r, name, nest, tbl)}
		value := func() compositeValue {
			var v compositeValue
			for _, f := range fields {
				if rng.IntN(5) == 0 {
					v.args = append(v.args, "NULL")
					v.texts = append(v.texts, nil)
					continue
				}
				lit := f.vals[rng.IntN(len(f.vals))]
				v.args = append(v.args, lit)
				s := fieldText(lit)
				v.texts = append(v.texts, &s)
			}
			return v
		}
		var rows []string
		for id := 1; id <= 8; id++ {
			rows = append(rows, "("+strings.Join(value().args, ", ")+")")
		}
		setup(fmt.Sprintf("INSERT INTO %s VALUES %s", tbl, strings.Join(rows, ", ")))
		sqlLit := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
		for j := 0; j < 12; j++ {
			a, b := value(), value()
			ra := "ROW(" + strings.Join(a.args, ", ") + ")::" + name
			rb := "ROW(" + strings.Join(b.args, ", ") + ")::" + name
			la := sqlLit(recordText(a.texts, rng)) + "::" + name
			f := fmt.Sprintf("f%d", 1+rng.IntN(len(fields)))
			queries := []string{
				"SELECT " + ra + ", pg_typeof(" + ra + ")::text",
				"SELECT " + la + ", (" + la + ")." + f,
				"SELECT " + la + " = " + ra + ", " + ra + " = " + rb + ", " + ra + " < " + rb + ", " + ra + " IS DISTINCT FROM " + rb,
				"SELECT " + ra + " IS NULL, " + ra + " IS NOT NULL, " + la + " IS NULL",
				"SELECT (" + ra + ")." + f + ", (" + ra + ").nosuch",
				"SELECT (" + ra + ").*",
				"SELECT ROW(" + strings.Join(append(a.args, "1"), ", ") + ")::" + name,
				"SELECT " + sqlLit(malformed(recordText(a.texts, rng), rng)) + "::" + name,
				"SELECT " + sqlLit(recordText(a.texts, rng)) + "::text::" + name,
				"SELECT ROW(" + ra + ", 3)::" + nest + ", ((ROW(" + ra + ", 3)::" + nest + ").inner_v)." + f + ", (ROW(" + ra + ", 3)::" + nest + ").inner_v." + f,
				"SELECT " + sqlLit("("+sqlRecordQuote(recordText(a.texts, rng))+",4)") + "::" + nest,
				"SELECT ARRAY[" + ra + ", " + rb + "], pg_typeof(ARRAY[" + ra + "])::text",
				"SELECT t, pg_typeof(t)::text FROM " + tbl + " t ORDER BY t",
				"SELECT (t)." + f + ", t = " + ra + "::text::" + tbl + " FROM " + tbl + " t ORDER BY t",
				"SELECT t FROM " + tbl + " t WHERE t = " + sqlLit(recordText(a.texts, rng)) + "::" + tbl,
				"SELECT count(*) FROM " + tbl + " t WHERE t IS NOT NULL",
			}
			for _, q := range queries {
				tallyBy(t, ctx, r, q, stats, rule)
			}
		}
	}
	t.Logf("%v", stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// fieldText is the text record_out prints for a field given as literal
// lit (quotes removed, true/false as t/f).
func fieldText(lit string) string {
	switch lit {
	case "true":
		return "t"
	case "false":
		return "f"
	}
	if strings.HasPrefix(lit, "'") {
		return strings.ReplaceAll(lit[1:len(lit)-1], "''", "'")
	}
	return lit
}

// recordText spells a composite value as record_in reads it, in one of
// the ways it allows: fields quoted only where needed or always, quotes
// doubled or backslashed, blanks around the parentheses.
func recordText(texts []*string, rng *rand.Rand) string {
	var b strings.Builder
	if rng.IntN(4) == 0 {
		b.WriteString("  ")
	}
	b.WriteByte('(')
	for i, s := range texts {
		if i > 0 {
			b.WriteByte(',')
		}
		if s == nil {
			continue
		}
		switch {
		case rng.IntN(3) == 0 || *s == "" || strings.ContainsAny(*s, "\"\\(), \t"):
			b.WriteString(sqlRecordQuote(*s))
		default:
			b.WriteString(*s)
		}
	}
	b.WriteByte(')')
	if rng.IntN(4) == 0 {
		b.WriteString(" ")
	}
	return b.String()
}

// sqlRecordQuote is s as one quoted field of a record literal.
func sqlRecordQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `""`).Replace(s) + `"`
}

// malformed breaks a record literal one of the ways record_in refuses.
func malformed(s string, rng *rand.Rand) string {
	t := strings.TrimSpace(s)
	switch rng.IntN(4) {
	case 0:
		return t[1:] // no left parenthesis
	case 1:
		return t[:len(t)-1] // unexpected end
	case 2:
		return t + " junk"
	}
	return t[:len(t)-1] + ",,x)" // too many columns
}

// typeOIDMap maps sqlgate's OIDs of the named types (enums, composites,
// tables' row types) and of their array types to PostgreSQL's.
func typeOIDMap(t *testing.T, ctx context.Context, r *Runner, names ...string) map[uint32]uint32 {
	t.Helper()
	m := map[uint32]uint32{}
	for _, name := range names {
		q := "SELECT oid::int8, typarray::int8 FROM pg_type WHERE typname = '" + name + "'"
		sg, pg := r.SQLGate.Run(ctx, q), r.Postgres.Run(ctx, q)
		if sg.Err != nil || pg.Err != nil || len(sg.Rows) != 1 || len(pg.Rows) != 1 {
			t.Fatalf("pg_type of %s: sqlgate %v, PostgreSQL %v", name, describeErr(sg), describeErr(pg))
		}
		for j := 0; j < 2; j++ {
			a, _ := strconv.ParseUint(sg.Rows[0][j].Text, 10, 32)
			b, _ := strconv.ParseUint(pg.Rows[0][j].Text, 10, 32)
			m[uint32(a)] = uint32(b)
		}
	}
	return m
}
