package sql

import "testing"

// TestTypeStmtSyntaxErrors: CREATE TYPE and ALTER TYPE forms PostgreSQL
// 15's grammar has no rule for are its 42601 at the token it stops at
// (they were 0A000 "not supported"); message and position are
// PostgreSQL's answer to a Parse message of each input.
func TestTypeStmtSyntaxErrors(t *testing.T) {
	tests := []syntaxCase{
		{"CREATE TYPE typedlit_mood ENUM ('sad', 'ok')", "syntax error at or near \"ENUM\"", 27},
		{"CREATE TYPE cmt_ty ) AS ENUM ('x')", "syntax error at or near \")\"", 20},
		{"CREATE TYPE pgd_s.mood ) AS ENUM ('a', 'b')", "syntax error at or near \")\"", 24},
		{"ALTER TYPE enum_size VALUE 'large' TO 'big'", "syntax error at or near \"VALUE\"", 22},
		{"ALTER TYPE ctr1 RENAME ctr1b", "syntax error at or near \"ctr1b\"", 24},
		{"ALTER TYPE ct_pair RENAME ct_renamed TO", "syntax error at or near \"ct_renamed\"", 27},
		{"ALTER TYPE ct_pair ATTRIBUTE w", "syntax error at or near \"ATTRIBUTE\"", 20},
		{"ALTER TYPE TYPE ct_pair RENAME TO ct_renamed", "syntax error at or near \"ct_pair\"", 17},
		{"ALTER TYPE ADD ATTRIBUTE z int", "syntax error at or near \"ATTRIBUTE\"", 16},
		{"ALTER TYPE ct_pair ADD z int", "syntax error at or near \"z\"", 24},
		{"ALTER TYPE ct_pair DROP z", "syntax error at or near \"z\"", 25},
		{"ALTER TYPE ct_pair", "syntax error at end of input", 19},
	}
	checkSyntaxErrors(t, tests)
	// what PostgreSQL's grammar takes but sqlgate lacks stays 0A000
	checkNotSupported(t, []string{"CREATE TYPE x", "CREATE TYPE x (input = f)", "ALTER TYPE x ALTER ATTRIBUTE a TYPE int", "ALTER TYPE x SET (receive = f)"})
}

// TestCommentOnSyntaxErrors: COMMENT ON followed by a word that starts no
// object kind of PostgreSQL 15's grammar is its 42601 at the word; an
// object kind sqlgate keeps no comment for stays 0A000.
func TestCommentOnSyntaxErrors(t *testing.T) {
	tests := []syntaxCase{
		{"COMMENT ON ON COLUMN public.doc.body IS 'text of it'", "syntax error at or near \"ON\"", 12},
		{"COMMENT ON cmt_dm DOMAIN IS 'a domain'", "syntax error at or near \"cmt_dm\"", 12},
		{"COMMENT ON IS 'x'", "syntax error at or near \"IS\"", 12},
	}
	checkSyntaxErrors(t, tests)
	checkNotSupported(t, []string{"COMMENT ON DATABASE d IS 'x'", "COMMENT ON TRIGGER tr ON t IS 'x'", "COMMENT ON EXTENSION e IS 'x'"})
}
