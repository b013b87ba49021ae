package clients

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// nnCol is a column of TestNotNullDetailMatchesPostgres's table: its type,
// and a generator of a value's SQL literal and COPY text form.
type nnCol struct {
	name, decl, cast string
	notNull          bool
	gen              func(r *rand.Rand) (lit, copyText string)
}

var nnStrings = []string{
	"plain", "", "a\"b,c ( )", "it's", "ééé€", "null", "NULL",
	strings.Repeat("x", 63), strings.Repeat("y", 64), strings.Repeat("z", 65), strings.Repeat("é", 40),
	strings.Repeat("ab€", 30),
}

func nnText(r *rand.Rand) (string, string) {
	s := nnStrings[r.Intn(len(nnStrings))]
	return "'" + strings.ReplaceAll(s, "'", "''") + "'", s
}

func nnNumber(r *rand.Rand) (string, string) {
	s := fmt.Sprintf("%d.%02d", r.Intn(20000)-10000, r.Intn(100))
	return s, s
}

var nnColumns = []nnCol{
	{name: "id", decl: "int PRIMARY KEY", cast: "int", notNull: true},
	{name: "a", decl: "text NOT NULL", cast: "text", notNull: true, gen: nnText},
	{name: "b", decl: "numeric(10,2)", cast: "numeric(10,2)", gen: nnNumber},
	{name: "c", decl: "bool NOT NULL", cast: "bool", notNull: true, gen: func(r *rand.Rand) (string, string) {
		if r.Intn(2) == 0 {
			return "true", "t"
		}
		return "false", "f"
	}},
	{name: "d", decl: "timestamp", cast: "timestamp", gen: func(r *rand.Rand) (string, string) {
		s := fmt.Sprintf("20%02d-%02d-%02d %02d:%02d:%02d", r.Intn(30), 1+r.Intn(12), 1+r.Intn(28), r.Intn(24), r.Intn(60), r.Intn(60))
		if r.Intn(2) == 0 {
			s += fmt.Sprintf(".%d", 1+r.Intn(999999))
		}
		return "'" + s + "'", s
	}},
	{name: "e", decl: "float8 NOT NULL DEFAULT 1.5", cast: "float8", notNull: true, gen: func(r *rand.Rand) (string, string) {
		s := []string{"0.1", "1e20", "-2.5e-7", "3", "123456789012345678", "'NaN'", "'-Infinity'"}[r.Intn(7)]
		return s, strings.Trim(s, "'")
	}},
	{name: "f", decl: "date", cast: "date", gen: func(r *rand.Rand) (string, string) {
		s := fmt.Sprintf("19%02d-%02d-%02d", r.Intn(100), 1+r.Intn(12), 1+r.Intn(28))
		return "'" + s + "'", s
	}},
	{name: "g", decl: "int[]", cast: "int[]", gen: func(r *rand.Rand) (string, string) {
		s := []string{"{}", "{1,2}", "{NULL,3}", "{-4}"}[r.Intn(4)]
		return "'" + s + "'", s
	}},
	{name: "h", decl: "bytea", cast: "bytea", gen: func(r *rand.Rand) (string, string) {
		s := fmt.Sprintf(`\x%02x%02x`, r.Intn(256), r.Intn(256))
		return "'" + s + "'", `\` + s
	}},
	{name: "k", decl: "bigint NOT NULL", cast: "bigint", notNull: true, gen: func(r *rand.Rand) (string, string) {
		s := fmt.Sprint(r.Int63() - r.Int63())
		return s, s
	}},
}

// TestNotNullDetailMatchesPostgres writes generated rows, a column left
// NULL now and then (NOT NULL ones among them), through every statement
// that writes (INSERT VALUES of one or several rows, INSERT with columns
// omitted, INSERT ... SELECT, UPDATE of a column or of the key, INSERT ...
// ON CONFLICT DO UPDATE, COPY FROM STDIN, and statements that write no
// row) on sqlgate and on PostgreSQL 15, and compares each statement's
// ErrorResponse: SQLSTATE, message and DETAIL ("Failing row contains
// (...)." with every column's text form, long values cut at 64 bytes), or
// that both succeeded.
func TestNotNullDetailMatchesPostgres(t *testing.T) {
	r := rand.New(rand.NewSource(18))
	var decls []string
	for _, c := range nnColumns {
		decls = append(decls, c.name+" "+c.decl)
	}
	type stmt struct {
		sql  string
		copy string // COPY's data when sql is a COPY FROM STDIN
	}
	stmts := []stmt{{sql: "CREATE TABLE nd (" + strings.Join(decls, ", ") + ")"}}
	nextID := 1
	// row returns a row's literals (typed, so that INSERT ... SELECT
	// reads them as the columns' types) and its COPY line.
	row := func(id int, nullOdds int) ([]string, string) {
		lits := make([]string, len(nnColumns))
		texts := make([]string, len(nnColumns))
		for i, c := range nnColumns {
			switch {
			case i == 0 && r.Intn(12) == 0:
				lits[i], texts[i] = "NULL::int", `\N`
			case i == 0:
				lits[i], texts[i] = fmt.Sprint(id), fmt.Sprint(id)
			case r.Intn(nullOdds) == 0:
				lits[i], texts[i] = "NULL::"+c.cast, `\N`
			default:
				l, s := c.gen(r)
				lits[i], texts[i] = l+"::"+c.cast, s
			}
		}
		return lits, strings.Join(texts, "\t")
	}
	for n := 0; n < 160; n++ {
		id := nextID
		nextID += 3
		switch kind := r.Intn(8); kind {
		case 0, 1: // INSERT VALUES, one to three rows
			var rows []string
			for k := 0; k <= r.Intn(3); k++ {
				lits, _ := row(id+k, 6)
				rows = append(rows, "("+strings.Join(lits, ", ")+")")
			}
			stmts = append(stmts, stmt{sql: "INSERT INTO nd VALUES " + strings.Join(rows, ", ")})
		case 2: // columns omitted: a has no default, e has one
			lits, _ := row(id, 5)
			stmts = append(stmts, stmt{sql: fmt.Sprintf("INSERT INTO nd (id, c, k, b) VALUES (%s, %s, %s, %s)", lits[0], lits[3], lits[9], lits[2])})
		case 3: // INSERT ... SELECT, one row or none
			lits, _ := row(id, 6)
			where := ""
			if r.Intn(4) == 0 {
				where = " WHERE false"
			}
			stmts = append(stmts, stmt{sql: "INSERT INTO nd SELECT " + strings.Join(lits, ", ") + where})
		case 4: // UPDATE one row (maybe its key), or none
			lits, _ := row(id, 3)
			c := 1 + r.Intn(len(nnColumns)-1)
			if r.Intn(6) == 0 {
				c = 0
			}
			target := fmt.Sprintf("id = %d", 1+3*r.Intn(max(1, n)))
			if r.Intn(5) == 0 {
				target = "false"
			}
			stmts = append(stmts, stmt{sql: fmt.Sprintf("UPDATE nd SET %s = %s WHERE %s", nnColumns[c].name, lits[c], target)})
		case 5: // ON CONFLICT DO UPDATE of an existing row or an insert
			lits, _ := row(1+3*r.Intn(max(1, n)), 4)
			c := 1 + r.Intn(len(nnColumns)-1)
			set := lits[c]
			if r.Intn(2) == 0 {
				set = "EXCLUDED." + nnColumns[c].name
			}
			stmts = append(stmts, stmt{sql: fmt.Sprintf("INSERT INTO nd VALUES (%s) ON CONFLICT (id) DO UPDATE SET %s = %s", strings.Join(lits, ", "), nnColumns[c].name, set)})
		case 6: // COPY, one to three lines
			var lines []string
			for k := 0; k <= r.Intn(3); k++ {
				_, line := row(id+k, 6)
				lines = append(lines, line)
			}
			stmts = append(stmts, stmt{sql: "COPY nd FROM STDIN", copy: strings.Join(lines, "\n") + "\n"})
		case 7: // COPY of some columns: the others' defaults or nulls
			_, line := row(id, 5)
			f := strings.Split(line, "\t")
			stmts = append(stmts, stmt{sql: "COPY nd (id, a, c, k) FROM STDIN", copy: strings.Join([]string{f[0], f[1], f[3], f[9]}, "\t") + "\n"})
		}
	}
	stmts = append(stmts, stmt{sql: "SELECT count(*) FROM nd"})
	run := func(connString string) []string {
		conn := connectPgx(t, connString).PgConn()
		ctx := context.Background()
		var out []string
		for _, s := range stmts {
			var err error
			var tag string
			if s.copy != "" {
				var ct pgconn.CommandTag
				ct, err = conn.CopyFrom(ctx, strings.NewReader(s.copy), s.sql)
				tag = ct.String()
			} else {
				var res []*pgconn.Result
				res, err = conn.Exec(ctx, s.sql).ReadAll()
				if err == nil {
					tag = res[0].CommandTag.String()
					for _, row := range res[0].Rows {
						tag += " " + string(row[0])
					}
				}
			}
			var pe *pgconn.PgError
			switch {
			case errors.As(err, &pe):
				out = append(out, fmt.Sprintf("ERROR %s: %s\n    DETAIL: %s", pe.Code, pe.Message, pe.Detail))
			case err != nil:
				t.Fatalf("%s: %v", s.sql, err)
			default:
				out = append(out, tag)
			}
		}
		return out
	}
	pg := pgtest.Start(t)
	want := run(pg.ConnString())
	got := run(startServer(t).ConnString())
	failed, ok := 0, 0
	for i, s := range stmts {
		if strings.HasPrefix(want[i], "ERROR 23502") {
			failed++
		} else if !strings.HasPrefix(want[i], "ERROR") {
			ok++
		}
		if got[i] != want[i] {
			t.Errorf("%s\n%s\n  sqlgate:    %s\n  postgresql: %s", s.sql, s.copy, got[i], want[i])
		}
	}
	// The generator must reach both outcomes, or the comparison is idle.
	if failed < 20 || ok < 20 {
		t.Errorf("%d statements refused with 23502 and %d succeeded on PostgreSQL: too few of one", failed, ok)
	}
	t.Logf("%d statements: %d refused with 23502, %d succeeded", len(stmts), failed, ok)
}
