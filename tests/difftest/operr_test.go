package difftest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
)

// operandLiterals are typed operands for TestOperatorErrorDifferential, with
// an untyped literal among them, some holding operator characters.
var operandLiterals = []string{
	"1", "2.5", "'7'::bigint", "1.5::real", "true", "'a+b'", "'x'::text", "'\\x01'::bytea",
	"date '2020-01-01'", "timestamp '2020-01-01 00:00:00'", "interval '1 day'", "time '10:00'",
	"array[1,2]", "array['a'::text]", "'{\"a\":1}'::jsonb", "'-'",
	// an unknown literal every numeric type reads, and int2, beside which
	// binary_oper_exact reads an unknown as int2
	"'2'", "3::smallint",
	// arrays of other element types, and an untyped array literal, for
	// anyarray's operators (@> <@ && ||)
	"array[1,2]::bigint[]", "'{1}'",
}

var binaryOperators = []string{"+", "-", "*", "/", "%", "||", "=", "<", ">=", "<>", "&", "|",
	// operators TiDB's grammar lacks, which sql's rewrite turns into calls
	"@>", "<@", "&&", "->", "->>", "#>", "#", "?", "^@"}

// TestOperatorErrorDifferential applies every operator of binaryOperators
// to every ordered pair of operandLiterals on sqlgate and PostgreSQL 15
// (testdata/operator_differences.txt lists the differences not fixed yet).
// Where PostgreSQL refuses, sqlgate must refuse with the same SQLSTATE,
// message and cursor position (the operator token, as PostgreSQL's parser
// records it); where PostgreSQL answers, sqlgate's answer must be the same
// or a refusal with a SQLSTATE of class 22 or 0A (a value or a type
// sqlgate does not hold, reported as such), never another answer.
func TestOperatorErrorDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	known := knownDifferences(t, "testdata/operator_differences.txt")
	stats := map[string]int{}
	var diffs []string
	differs := func(q, why string) {
		if known[q] {
			known[q] = false // seen
			stats["known difference"]++
			return
		}
		diffs = append(diffs, q+"\n  "+why)
	}
	for _, op := range binaryOperators {
		for _, a := range operandLiterals {
			for _, b := range operandLiterals {
				q := fmt.Sprintf("SELECT %s %s %s", a, op, b)
				sg := r.SQLGate.Run(ctx, q)
				pg := r.Postgres.Run(ctx, q)
				switch {
				case sg.Err != nil && sg.Err.Code == connErrorCode:
					t.Fatalf("%s lost its connection: %s", q, sg.Err.Message)
				case pg.Err != nil && sg.Err != nil && pg.Err.Code == "42883":
					if *sg.Err != *pg.Err {
						differs(q, "sqlgate:    "+describeAt(sg)+"\n  PostgreSQL: "+describeAt(pg))
						continue
					}
					stats["no operator, alike"]++
				case pg.Err != nil && sg.Err != nil && pg.Err.Code == sg.Err.Code:
					if strings.HasPrefix(pg.Err.Code, "22") && pg.Err.Position != sg.Err.Position {
						// an operand PostgreSQL cannot read as the
						// operator's type: the cursor is at the operand
						differs(q, "sqlgate:    "+describeAt(sg)+"\n  PostgreSQL: "+describeAt(pg))
						continue
					}
					stats["refused alike"]++
				case pg.Err == nil && sg.Err == nil:
					if same, why := Compare(sg, pg, true, false); !same {
						differs(q, why)
						continue
					}
					stats["same answer"]++
				default:
					differs(q, "sqlgate:    "+describeAt(sg)+"\n  PostgreSQL: "+describeAt(pg))
				}
			}
		}
	}
	t.Logf("%v", stats)
	if stats["no operator, alike"] == 0 {
		t.Errorf("no query reached a missing operator: %v", stats)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	for q, unseen := range known {
		if unseen {
			t.Errorf("%s no longer differs from PostgreSQL: delete it from testdata/operator_differences.txt", q)
		}
	}
}

// knownDifferences reads a file of queries whose difference from
// PostgreSQL is known and not fixed yet (testdata/*_differences.txt: one a
// line, # comments), each mapped to true until the test sees it.
func knownDifferences(t *testing.T, file string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			known[line] = true
		}
	}
	return known
}

// describeAt is describe with the error's cursor position.
func describeAt(o Outcome) string {
	if o.Err != nil {
		return fmt.Sprintf("%s at %d", describe(o), o.Err.Position)
	}
	return describe(o)
}
