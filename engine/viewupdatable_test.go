package engine_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgcatalog"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/views"
)

// TestViewUpdatabilityFromDefinition: the catalog derives whether a view
// is updatable from its definition when asked, as PostgreSQL does, so
// views stored before sqlgate recorded the flags (here: the flags taken
// off the stored views) and views over a view replaced since answer
// right.
func TestViewUpdatabilityFromDefinition(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := embedded.Open(filepath.Join(dir, "data"), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	md, err := meta.OpenFile(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	var eng *engine.Engine
	cat := pgcatalog.New(store, pgcatalog.Options{Views: md,
		ViewUpdatability: func(ctx context.Context, v views.View) (bool, []bool) { return eng.ViewUpdatability(ctx, v) }})
	eng = engine.New(store, engine.Options{Meta: md, Virtual: cat})
	s, err := eng.NewSession(ctx, pgwire.SessionInfo{User: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	mustRun(t, s, "CREATE TABLE t (a INT PRIMARY KEY, b INT)")
	mustRun(t, s, "CREATE VIEW v AS SELECT a, b, a + b AS s FROM t; CREATE VIEW vv AS SELECT * FROM v WHERE a > 0")
	mustRun(t, s, "CREATE VIEW g AS SELECT a, count(*) FROM t GROUP BY a")
	// as an older sqlgate stored them: no flags
	err = md.Update(ctx, func(tx *meta.Tx) error {
		for _, name := range []string{"v", "vv", "g"} {
			old, _ := tx.Views.Get(fluss.TablePath{Database: fluss.DefaultDatabase, Table: name})
			old.AutoUpdatable = false
			for i := range old.Columns {
				old.Columns[i].Updatable = false
			}
			if _, err := tx.Views.Create(old, true); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(sql, want string) {
		t.Helper()
		if got := strings.Join(mustRun(t, s, sql), ","); got != want {
			t.Errorf("%s: %s, want %s", sql, got, want)
		}
	}
	check("SELECT table_name || is_updatable || is_insertable_into FROM information_schema.views WHERE table_schema = 'public' ORDER BY 1",
		"gNONO,vYESYES,vvYESYES")
	check("SELECT column_name || is_updatable FROM information_schema.columns WHERE table_name = 'vv' ORDER BY ordinal_position",
		"aYES,bYES,sNO")
	check("SELECT pg_relation_is_updatable('vv'::regclass, false)", "28")
	// the view under vv replaced by one that is not updatable
	mustRun(t, s, "CREATE OR REPLACE VIEW v AS SELECT DISTINCT a, b, a + b AS s FROM t")
	check("SELECT table_name || is_updatable FROM information_schema.views WHERE table_schema = 'public' ORDER BY 1",
		"gNO,vNO,vvNO")
}
