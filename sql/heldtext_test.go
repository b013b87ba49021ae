package sql

import "testing"

// TestHeldTextSyntaxErrors: a statement another statement holds (PREPARE,
// DECLARE CURSOR, CREATE MATERIALIZED VIEW), a domain's DEFAULT or CHECK
// expression, and the statements whose grammar sqlgate reads itself
// (VACUUM's options, ALTER VIEW's actions) fail to parse as PostgreSQL 15
// fails them: the message and position (in the whole input) are
// PostgreSQL's, read from its answer to a Parse message of each input.
func TestHeldTextSyntaxErrors(t *testing.T) {
	tests := []syntaxCase{
		{"PREPARE rqq AS SELECT b FROM FROM rq", "syntax error at or near \"FROM\"", 30},
		{"select 1; PREPARE rqq AS SELECT b FROM FROM rq", "syntax error at or near \"FROM\"", 40},
		{"PREPARE p2 AS SELECT 1 +", "syntax error at end of input", 25},
		{"PREPARE p(int) AS UPDATE t SET v = WHERE id = $1", "syntax error at or near \"WHERE\"", 36},
		{"DECLARE c CURSOR FOR SELECT id FROM t ORDER value BY id", "syntax error at or near \"value\"", 45},
		{"DECLARE c CURSOR WITH HOLD FOR SELECT * FROM t WHERE", "syntax error at end of input", 53},
		{"CREATE MATERIALIZED VIEW mv AS SELECT sum(n) total AS FROM t", "syntax error at or near \"AS\"", 52},
		{"CREATE MATERIALIZED VIEW mv AS SELECT 1 + WITH NO DATA", "syntax error at or near \"WITH\"", 43},
		{"ALTER VIEW MATERIALIZED mv RENAME TO mv3", "syntax error at or near \"mv\"", 25},
		{"ALTER VIEW v OWNER postgres", "syntax error at or near \"postgres\"", 20},
		{"ALTER VIEW v RENAME COLUMN a b", "syntax error at or near \"b\"", 30},
		{"ALTER VIEW v SET check_option = local)", "syntax error at or near \"check_option\"", 18},
		{"ALTER VIEW v RESET", "syntax error at end of input", 19},
		{"ALTER VIEW v ALTER COLUMN a DROP", "syntax error at end of input", 33},
		{"VACUUM (FULL, ) t", "syntax error at or near \")\"", 15},
		{"VACUUM (FULL, WHERE FREEZE) t", "syntax error at or near \"WHERE\"", 15},
		{"VACUUM () t", "syntax error at or near \")\"", 9},
		{"ANALYZE (VERBOSE, SKIP_LOCKED true t", "syntax error at or near \"t\"", 36},
		{"CREATE DOMAIN d AS int CHECK (value LIKE > 0)", "syntax error at or near \">\"", 42},
		{"CREATE DOMAIN d AS int CHECK (value >)", "syntax error at or near \")\"", 38},
		{"CREATE DOMAIN d AS int DEFAULT 1 + CHECK (value > 0)", "syntax error at or near \"CHECK\"", 36},
		{"CREATE DOMAIN d AS boolean CHECK (user value)", "syntax error at or near \"value\"", 40},
		{"ALTER DOMAIN d SET DEFAULT 1 +", "syntax error at end of input", 31},
		{"ALTER DOMAIN d ADD CHECK (value <> 3 * )", "syntax error at or near \")\"", 40},
		{"WITH u AS (UPDATE t SET v = 1 RETURNING v)", "syntax error at end of input", 43},
	}
	checkSyntaxErrors(t, tests)
}

// TestHeldTextAccepted: what PostgreSQL parses in those places still
// parses, and ROLLBACK TO / RELEASE SAVEPOINT with nothing after it names
// the savepoint "savepoint" (an unreserved keyword is a name).
func TestHeldTextAccepted(t *testing.T) {
	for _, in := range []string{
		"PREPARE p(int) AS UPDATE t SET v = v + $1 WHERE id = $1",
		"PREPARE p AS WITH u AS (UPDATE t SET v = 1 RETURNING v) SELECT * FROM u",
		"DECLARE c SCROLL CURSOR WITH HOLD FOR SELECT * FROM t ORDER BY id",
		"CREATE MATERIALIZED VIEW mv (a) AS SELECT sum(n) FROM t WITH NO DATA",
		"CREATE DOMAIN d AS int DEFAULT 1 + 2 CHECK (value > 0) CHECK (value IN (1, 2, 3))",
		"ALTER DOMAIN d ADD CONSTRAINT c CHECK (value ~ '^[0-9]+$') NOT VALID",
		"VACUUM (FULL, ANALYZE, VERBOSE false, PARALLEL 2, INDEX_CLEANUP 'auto') t",
		"ANALYZE (SKIP_LOCKED) t",
		"ALTER VIEW v OWNER TO CURRENT_USER",
		"ALTER VIEW v ALTER COLUMN a SET DEFAULT 1 + 2",
	} {
		if _, err := NewParser().Parse(in); err != nil {
			t.Errorf("%s: %v", in, err)
		}
	}
	for _, in := range []string{"ROLLBACK TO SAVEPOINT", "ROLLBACK WORK TO SAVEPOINT", "RELEASE SAVEPOINT"} {
		sts, err := NewParser().Parse(in)
		if err != nil || len(sts) != 1 || sts[0].Tx == nil || sts[0].Tx.Savepoint != "savepoint" {
			t.Errorf("%s: %v, want the savepoint named savepoint", in, err)
		}
	}
}
