package sql

import "testing"

// TestSplitCurrentOf: the clause is found at the top level of UPDATE and
// DELETE only, with the cursor's name as PostgreSQL folds it, and the text
// around it kept for the engine's rewrite.
func TestSplitCurrentOf(t *testing.T) {
	tests := []struct {
		in, cursor, before, after string
	}{
		{in: "UPDATE t SET v = 1 WHERE CURRENT OF c", cursor: "c", before: "UPDATE t SET v = 1 WHERE ", after: ""},
		{in: "delete from t where current of C1 returning *", cursor: "c1", before: "delete from t where ", after: " returning *"},
		{in: `DELETE FROM t WHERE CURRENT OF "My Cur"`, cursor: "My Cur", before: "DELETE FROM t WHERE ", after: ""},
		{in: "UPDATE t SET v = (SELECT 1) WHERE CURRENT OF c RETURNING v, (v)", cursor: "c", before: "UPDATE t SET v = (SELECT 1) WHERE ", after: " RETURNING v, (v)"},
		{in: "UPDATE t SET v = 'WHERE CURRENT OF c' WHERE id = 1"},
		{in: "SELECT * FROM t WHERE CURRENT OF c"},
		{in: "UPDATE t SET v = 1 WHERE id IN (SELECT id FROM u WHERE CURRENT OF c)"},
		{in: "UPDATE t SET v = 1 WHERE CURRENT OF 5"},
	}
	for _, tt := range tests {
		toks, err := lex(tt.in)
		if err != nil {
			t.Fatal(err)
		}
		c := splitCurrentOf(tt.in, toks)
		if tt.cursor == "" {
			if c != nil {
				t.Errorf("%s: found cursor %q, want none", tt.in, c.Cursor)
			}
			continue
		}
		if c == nil || c.Cursor != tt.cursor || c.Before != tt.before || c.After != tt.after {
			t.Errorf("%s: got %+v, want cursor %q before %q after %q", tt.in, c, tt.cursor, tt.before, tt.after)
			continue
		}
		if got := c.Text("id = '1'"); got != tt.before+"id = '1'"+tt.after {
			t.Errorf("%s: Text = %q", tt.in, got)
		}
	}
}

// TestParseCurrentOf: the statement parses with the clause taken out and
// keeps its own text.
func TestParseCurrentOf(t *testing.T) {
	p := NewParser()
	for _, in := range []string{"UPDATE t SET v = $1 WHERE CURRENT OF c RETURNING v", "DELETE FROM t WHERE CURRENT OF c"} {
		stmts, err := p.Parse(in + "; SELECT 1")
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if len(stmts) != 2 || stmts[0].CurrentOf == nil || stmts[0].CurrentOf.Cursor != "c" || stmts[0].Text != in || stmts[1].CurrentOf != nil {
			t.Fatalf("%s: got %+v", in, stmts)
		}
	}
}
