package difftest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// bpcharValues are the texts the bpchar uses are tried with: trailing and
// leading blanks, the empty string, a multibyte character and NULL.
var bpcharValues = []string{"'abc'", "'a  '", "''", "NULL", "'héllo '", "' x'"}

// bpcharUses are queries over two values, $1 and $2 (each of
// bpcharValues): bpchar without a length has no limit, character without
// one is character(1), and the common type of character(n) of different
// lengths is bpchar without a length (select_common_typmod). The '[' ||
// ... || ']' forms show what a conversion to text keeps.
var bpcharUses = []string{
	"SELECT $1::bpchar, $1::char, $1::character, $1::char(2), $1::bpchar(5)",
	"SELECT '[' || $1::bpchar || ']', '[' || $1::char(2) || ']', $1::bpchar || $2::text",
	"SELECT length($1::bpchar), octet_length($1::bpchar), char_length($1::char(5)), length($1::bpchar(5))",
	"SELECT pg_typeof($1::bpchar), pg_typeof($1::char(2)), format_type(1042, -1), format_type(1042, 6)",
	"SELECT x, pg_typeof(x) FROM (SELECT $1::char(1) AS x UNION ALL SELECT $2::char(3)) s",
	"SELECT x FROM (SELECT $1::char(3) AS x UNION ALL SELECT $2) s",
	"SELECT x FROM (VALUES ($1::char(1)), ($2::char(3))) v(x)",
	"SELECT CASE WHEN g > 1 THEN $1::char(1) ELSE $2::char(3) END FROM generate_series(1, 2) g",
	"SELECT CASE WHEN g > 1 THEN $1::char(1) ELSE $2 END FROM generate_series(1, 2) g",
	"SELECT COALESCE($1::char(1), $2::char(3)), COALESCE($1::char(2), $2)",
	"SELECT ARRAY[$1::char(1), $2::char(3)], ARRAY[$1::bpchar, $2::bpchar]",
	"SELECT $1::bpchar = $2::bpchar, $1::bpchar < $2::bpchar, $1::char(3) = $2::char(5)",
	"SELECT $1::bpchar = $2::text, $1::text = $2::bpchar, $1::bpchar < $2::text, $1::bpchar = $2",
	"SELECT $1::bpchar = $2::varchar(8), $1::char(2) = $2, $1::char(4) > $2::bpchar",
	"SELECT $1::char(0)",
	"SELECT concat($1::bpchar, '|', $2::char(3)), '[' || upper($1::bpchar) || ']', $1::bpchar::varchar(8), $1::char(4)::text",
	"SELECT $1::bpchar IN ($2, 'abc'), $1::char(3) = ANY (ARRAY[$2::bpchar, 'x']), $1::bpchar = ANY (ARRAY[$2::text])",
	"SELECT CASE $1::char(3) WHEN $2 THEN 1 WHEN 'abc' THEN 2 ELSE 3 END, NULLIF($1::bpchar, $2::char(2))",
	"WITH RECURSIVE r(x) AS (SELECT $1::char(1) UNION ALL SELECT $2::char(3) FROM r WHERE false) SELECT x FROM r",
	"WITH RECURSIVE r(x) AS (SELECT $1::bpchar UNION ALL SELECT $2::char(3) FROM r WHERE false) SELECT x FROM r",
	"SELECT x, count(*) FROM (VALUES ($1::char(3)), ($2::char(3)), ('abc')) v(x) GROUP BY x",
}

// TestBpcharDifferential: every use × every ordered pair of values on
// sqlgate and PostgreSQL 15: the same values of the same types, or both
// refused with the same SQLSTATE and message.
func TestBpcharDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	stats := map[string]int{}
	for _, use := range bpcharUses {
		for _, x := range bpcharValues {
			for _, y := range bpcharValues {
				q := strings.NewReplacer("$1", x, "$2", y).Replace(use)
				tally(t, ctx, r, q, stats)
			}
		}
	}
	t.Logf("%d uses × %d² values: %v", len(bpcharUses), len(bpcharValues), stats)
	if stats["same"] == 0 || stats["refused alike"] == 0 {
		t.Errorf("too few outcomes of a kind: %v", stats)
	}
}

// bpcharParamQueries take one parameter the client declares bpchar (OID
// 1042, no typmod) in Parse: its value must arrive whole, as bpchar
// without a length, not cut to one character.
var bpcharParamQueries = []string{
	"SELECT $1",
	"SELECT $1, pg_typeof($1), length($1), '[' || $1 || ']'",
	"SELECT $1 = 'abc', $1 = 'abc  '::text, $1::char(2)",
}

// TestBpcharParameterDifferential sends every value of bpcharValues as a
// text-format bpchar parameter through the extended protocol, and
// compares the rows, the result types and their typmods (RowDescription).
func TestBpcharParameterDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	sgConn, pgConn := r.SQLGate.(*Session), r.Postgres.(*Session)
	same := 0
	for _, q := range bpcharParamQueries {
		for _, v := range []any{"abc", "a  ", "", nil, "héllo ", " x"} {
			var arg []byte
			if s, ok := v.(string); ok {
				arg = []byte(s)
			}
			sg, sgMods := runParam(ctx, sgConn, q, arg)
			pg, pgMods := runParam(ctx, pgConn, q, arg)
			what := fmt.Sprintf("%s with $1 = %q", q, v)
			switch {
			case sg.Err != nil && pg.Err != nil && sg.Err.Code == pg.Err.Code && sg.Err.Message == pg.Err.Message:
				continue
			case sg.Err != nil || pg.Err != nil:
				t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", what, describe(sg), describe(pg))
				continue
			}
			if ok, why := Compare(sg, pg, true, false); !ok {
				t.Errorf("%s\n  %s", what, why)
				continue
			}
			if fmt.Sprint(sgMods) != fmt.Sprint(pgMods) {
				t.Errorf("%s: typmods %v, PostgreSQL %v", what, sgMods, pgMods)
				continue
			}
			same++
		}
	}
	if same == 0 {
		t.Errorf("no parameter query gave the same answer")
	}
}

// runParam runs q with one text parameter declared bpchar (nil is NULL),
// returning its outcome and the result columns' typmods.
func runParam(ctx context.Context, s *Session, q string, arg []byte) (Outcome, []int32) {
	var res *pgconn.Result
	if qe := s.try(ctx, func(qctx context.Context) error { // run.go
		res = s.conn.ExecParams(qctx, q, [][]byte{arg}, []uint32{1042}, []int16{0}, []int16{0}).Read()
		return res.Err
	}); qe != nil {
		return Outcome{Err: qe}, nil
	}
	var mods []int32
	for _, fd := range res.FieldDescriptions {
		mods = append(mods, fd.TypeModifier)
	}
	return outcomeOf(res), mods
}
