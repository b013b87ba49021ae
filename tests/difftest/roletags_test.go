package difftest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestRoleTagsDifferential (SQLGATE_DIFF_ROLE_STATEMENTS, default 120)
// draws CREATE, ALTER and DROP of roles, spelled ROLE and USER, over a
// few names that exist or not, and runs them on sqlgate and PostgreSQL
// 15 outside any block: the command tag (ROLE's for USER too:
// PostgreSQL's statements are CreateRoleStmt, AlterRoleStmt and
// DropRoleStmt), or the error's SQLSTATE and message, and the notices
// must be PostgreSQL's.
func TestRoleTagsDifferential(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	r := startPair(t, ctx, &Schema{})
	sg := noticeConn(t, ctx, r.SQLGate.(*Session).connString)
	pg := noticeConn(t, ctx, r.Postgres.(*Session).connString)
	names := []string{"dtag_a", "dtag_b", "dtag_c"}
	drop := "DROP ROLE IF EXISTS dtag_a, dtag_b, dtag_c"
	for _, c := range []*noticeSession{sg, pg} {
		c.run(ctx, drop) // (roles are the PostgreSQL cluster's)
	}
	t.Cleanup(func() {
		for _, c := range []*noticeSession{sg, pg} {
			c.run(context.Background(), drop)
		}
	})
	rng := seededRand(t, 44)
	n := envInt(t, "SQLGATE_DIFF_ROLE_STATEMENTS", 120)
	differed := 0
	for range n {
		stmt := roleStatement(rng, names)
		var outs [2]string
		for i, c := range []*noticeSession{sg, pg} {
			outs[i] = ddlOutcome(t, ctx, c, stmt, false)
		}
		if outs[0] != outs[1] {
			differed++
			if differed <= 12 {
				t.Errorf("%s\nsqlgate:    %s\npostgresql: %s", stmt, outs[0], outs[1])
			}
		}
	}
	if differed > 0 {
		t.Errorf("%d of %d statements differed", differed, n)
	}
}

// roleStatement draws one role statement over names.
func roleStatement(rng *rand.Rand, names []string) string {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	name := func() string { return names[rng.IntN(len(names))] }
	what := pick("ROLE", "USER")
	opts := func() string {
		out := pick("", " WITH")
		for range rng.IntN(3) {
			out += " " + pick("LOGIN", "NOLOGIN", "SUPERUSER", "NOSUPERUSER", "PASSWORD 'pw'", "PASSWORD NULL")
		}
		return out
	}
	switch rng.IntN(3) {
	case 0:
		return fmt.Sprintf("CREATE %s %s%s", what, name(), opts())
	case 1:
		return fmt.Sprintf("ALTER %s %s%s", what, name(), opts())
	}
	list := name()
	if rng.IntN(3) == 0 {
		list += ", " + name()
	}
	return fmt.Sprintf("DROP %s %s%s", what, pick("", "IF EXISTS "), list)
}
