package clients

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/sqlgate/sqlgate/server"
	"github.com/sqlgate/sqlgate/tests/testbin"
)

// restartExtras are objects whose stored form names user-defined types:
// view and materialized-view columns of enum, enum array, domain and
// composite types; and objects whose texts a rename rewrote (a default
// and a SERIAL column drawing from renamed sequences, a view moved to
// another schema).
const restartExtras = `
CREATE VIEW app.moods AS SELECT id, mood, ARRAY[mood] AS moods, mood::text AS label FROM app.people;
CREATE VIEW public.statuses AS SELECT st, ARRAY[st, 'done'::public.status] AS pair, '(1,x)'::app.pair AS p FROM public.every;
CREATE VIEW app.quantities AS SELECT id, qty, mail FROM app.orders;
CREATE MATERIALIZED VIEW app.mood_counts AS SELECT mood, ARRAY[mood] AS ms, count(*) AS n FROM app.people GROUP BY mood;
CREATE SEQUENCE public.rn_seq START 10;
CREATE TABLE public.rn_t (id int PRIMARY KEY DEFAULT nextval('rn_seq'), v text, n serial);
ALTER SEQUENCE public.rn_seq RENAME TO rn_seq2;
ALTER SEQUENCE public.rn_t_n_seq RENAME TO rn_serial;
INSERT INTO public.rn_t (v) VALUES ('a'), ('b');
CREATE VIEW app.rn_v AS SELECT id, v, nextval('public.rn_seq2') > 0 AS drawn FROM public.rn_t;
ALTER VIEW app.rn_v SET SCHEMA public;
`

// TestCatalogSurvivesRestart: what a server stored, a server started
// again on the same directory reads back whole. pg_dump of the database
// before the restart and after it are the same text, and each view and
// materialized view still reads. (A view's column of an enum type once
// kept the type's name, which the metadata loader could not check
// without the catalog: the directory no longer opened.)
func TestCatalogSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	start := func() (*server.Server, string) {
		srv := testbin.StartServer(t, dir)
		host, port := hostPort(t, srv.Addr().String())
		return srv, "postgres://sqlgate@" + host + ":" + port + "/sqlgate?sslmode=disable"
	}
	srv, url := start()
	dumpPsql(t, url, "CREATE ROLE dump_owner; CREATE ROLE dump_reader;", true)
	dumpPsql(t, url, dumpSchema+dumpRows()+restartExtras+"REFRESH MATERIALIZED VIEW app.by_qty; REFRESH MATERIALIZED VIEW app.mood_counts;", true)
	const reads = `SELECT count(*) FROM app.moods; SELECT count(*) FROM public.statuses; SELECT count(*) FROM app.quantities;
SELECT count(*) FROM app.mood_counts; SELECT count(*) FROM app.happy; SELECT id, v, n FROM public.rn_t ORDER BY id;`
	readsBefore := dumpPsql(t, url, reads, true)
	before := filepath.Join(t.TempDir(), "before.sql")
	dumpRun(t, "pg_dump", "--no-password", "-f", before, url)
	if err := srv.Stop(context.Background()); err != nil {
		t.Fatal(err)
	}

	_, url = start()
	after := filepath.Join(t.TempDir(), "after.sql")
	dumpRun(t, "pg_dump", "--no-password", "-f", after, url)
	if a, b := readDump(t, before), readDump(t, after); a != b {
		t.Errorf("the dump after a restart differs from the one before:\n%s", lineDiff(a, b))
	}
	if got := dumpPsql(t, url, reads, true); got != readsBefore {
		t.Errorf("the views read after a restart:\n%s\nbefore it:\n%s", got, readsBefore)
	}
}
