package difftest

import (
	"context"
	"strings"
	"testing"
)

// missingRelationStatements are the statement kinds that name a relation
// (@) which must exist: DML, its subqueries and WITH, and the DDL of
// tables, indexes, comments, maintenance and locks. Each runs with @
// written every way of missingRelationNames.
var missingRelationStatements = []string{
	`SELECT * FROM @`,
	`SELECT * FROM mr WHERE EXISTS (SELECT 1 FROM @)`,
	`WITH w AS (SELECT 1) SELECT * FROM @`,
	`EXPLAIN SELECT * FROM @`,
	`INSERT INTO @ VALUES (1)`,
	`INSERT INTO mr SELECT * FROM @`,
	`UPDATE @ SET a = 1`,
	`DELETE FROM @`,
	`MERGE INTO @ m USING mr ON true WHEN MATCHED THEN DELETE`,
	`MERGE INTO mr USING @ m ON true WHEN MATCHED THEN DELETE`,
	`TRUNCATE @`,
	`TRUNCATE mr, @`,
	`ALTER TABLE @ ADD COLUMN x int`,
	`ALTER TABLE @ RENAME TO y`,
	`ALTER TABLE @ RENAME COLUMN a TO b`,
	`ALTER TABLE @ ALTER COLUMN a SET DEFAULT 1`,
	`ALTER TABLE @ DROP COLUMN a`,
	`ALTER TABLE @ ADD CONSTRAINT c CHECK (a > 0)`,
	`CREATE INDEX ON @ (a)`,
	`CREATE UNIQUE INDEX ON @ (a)`,
	`COMMENT ON TABLE @ IS 'x'`,
	`COMMENT ON COLUMN @.a IS 'x'`,
	`ANALYZE @`,
	`LOCK TABLE @`,
	`CREATE TABLE lk (LIKE @)`,
	`CREATE VIEW mv AS SELECT * FROM @`,
	`ALTER TABLE mr ADD FOREIGN KEY (a) REFERENCES @ (a)`,
	`CREATE TABLE ch (a int REFERENCES @)`,
	// DROP names the relation alone (DropErrorMsgNonExistent)
	`DROP TABLE @`,
	`DROP VIEW @`,
	`DROP SEQUENCE @`,
}

// missingRelationNames are the ways @ is written: unqualified, qualified
// by an existing schema (as written: case-folded, quoted, spaced), and by
// a schema that does not exist (3F000).
var missingRelationNames = []string{
	`nosuch`, `public.nosuch`, `PUBLIC.NoSuch`, `"public".nosuch`, `public."NoSuch"`, `public . nosuch`, `nosch.nosuch`,
}

// TestMissingRelationDifferential runs every statement kind of
// missingRelationStatements with every name of missingRelationNames for a
// relation that does not exist, in a rolled-back transaction: the
// SQLSTATE, the message (PostgreSQL's RangeVarGetRelid names the relation
// as written, "public.nosuch" for a qualified name) and the position must
// be PostgreSQL 15's.
func TestMissingRelationDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	setup := []string{`CREATE TABLE mr (a int PRIMARY KEY)`}
	r := startPair(t, ctx, &Schema{})
	for _, sess := range []Executor{r.SQLGate, r.Postgres} {
		if err := sess.(*Session).Exec(ctx, setup); err != nil {
			t.Fatal(err)
		}
	}
	same, qualified := 0, 0
	for _, tmpl := range missingRelationStatements {
		for _, name := range missingRelationNames {
			q := strings.Replace(tmpl, "@", name, 1)
			var outs [2]Outcome
			for s, sess := range []Executor{r.SQLGate, r.Postgres} {
				if o := sess.Run(ctx, "BEGIN"); o.Err != nil {
					t.Fatalf("BEGIN: %s", describeErr(o))
				}
				outs[s] = sess.Run(ctx, q)
				if o := sess.Run(ctx, "ROLLBACK"); o.Err != nil {
					t.Fatalf("ROLLBACK: %s", describeErr(o))
				}
			}
			sg, pg := outs[0], outs[1]
			if pg.Err == nil {
				t.Fatalf("%s: PostgreSQL accepted it", q)
			}
			if sg.Err == nil || sg.Err.Code != pg.Err.Code || sg.Err.Message != pg.Err.Message || sg.Err.Position != pg.Err.Position {
				t.Errorf("%s\n  sqlgate:    %s\n  PostgreSQL: %s", q, describeErr(sg), describeErr(pg))
				continue
			}
			same++
			if strings.Contains(pg.Err.Message, `"public.`) {
				qualified++
			}
		}
	}
	t.Logf("%d statements alike, %d naming a qualified relation", same, qualified)
}
