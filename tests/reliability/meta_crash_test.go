package reliability

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/sqlgate/sqlgate/tests/testbin"
)

// The metadata crash workload: clients run catalog changes (CREATE/DROP
// TABLE of a table with a SERIAL column, CREATE SEQUENCE ... OWNED BY,
// TRUNCATE of a log table (a new table under the name), CREATE/DROP VIEW,
// GRANT, REVOKE, CREATE/ALTER/DROP ROLE, ALTER TABLE ...
// RENAME TO of a table a view reads, whose grants, view and sequences
// follow it) one at a time while the server is killed with SIGKILL at a
// random moment. Each client works through cycles of named objects; after
// a restart every cycle's objects must be in the state of its acknowledged
// steps, or of those plus the one in flight, whole: each table and view
// there with its owner and its grants, each sequence owned by its table's
// column, or absent; never a table without its owner, a view over a
// dropped table, a GRANT on part of its tables, or a sequence left behind
// by a table that is gone (or not yet made).

const metaCrashClients = 3

// metaObjects is what a cycle's statements made, as the catalog shows it.
type metaObjects struct {
	tables  map[string]string // name -> owner
	views   map[string]string // name -> owner
	granted map[string]bool   // table or view -> reader holds SELECT
	roles   map[string]string // name -> "login" or "nologin"
	seqs    map[string]string // name -> the table.column owning it, "" for none
}

func newMetaObjects() metaObjects {
	return metaObjects{tables: map[string]string{}, views: map[string]string{}, granted: map[string]bool{}, roles: map[string]string{}, seqs: map[string]string{}}
}

func (o metaObjects) String() string {
	list := func(m map[string]string) string {
		var xs []string
		for k, v := range m {
			xs = append(xs, k+"/"+v)
		}
		sort.Strings(xs)
		return strings.Join(xs, ",")
	}
	var gs []string
	for k, v := range o.granted {
		if v {
			gs = append(gs, k)
		}
	}
	sort.Strings(gs)
	return fmt.Sprintf("tables[%s] views[%s] granted[%s] roles[%s] sequences[%s]", list(o.tables), list(o.views), strings.Join(gs, ","), list(o.roles), list(o.seqs))
}

// metaCycle is one cycle's objects and how far its statements got.
type metaCycle struct {
	prefix   string // c<client>_<n>_
	user     string
	done     int  // statements acknowledged
	inFlight bool // statement done+1 was sent, its outcome unknown
}

// steps are the cycle's statements in order; odd cycles also drop what
// they made, every other one by DROP TABLE ... CASCADE of the view's table.
func (c *metaCycle) steps() []string {
	p := c.prefix
	s := []string{
		"CREATE TABLE " + p + "a (k SERIAL PRIMARY KEY, v TEXT)",
		"CREATE TABLE " + p + "b (k INT)",
		"CREATE VIEW " + p + "v AS SELECT k, v FROM " + p + "a",
		"GRANT SELECT ON " + p + "a, " + p + "b, " + p + "v TO reader",
		"CREATE ROLE " + p + "r",
		"CREATE SEQUENCE " + p + "s OWNED BY " + p + "a.v",
		"ALTER ROLE " + p + "r LOGIN PASSWORD 'pw'",
		"TRUNCATE " + p + "b",
		"DROP TABLE " + p + "b",
		"ALTER TABLE " + p + "a RENAME TO " + p + "a2",
		"REVOKE SELECT ON " + p + "v FROM reader",
	}
	switch n, _ := strconv.Atoi(strings.Split(p, "_")[1]); n % 4 {
	case 1:
		s = append(s, "DROP VIEW "+p+"v", "DROP TABLE "+p+"a2", "DROP ROLE "+p+"r")
	case 3: // the view goes with the table
		s = append(s, "DROP TABLE "+p+"a2 CASCADE", "DROP ROLE "+p+"r")
	}
	return s
}

// after is the catalog state once the first n statements ran.
func (c *metaCycle) after(n int) metaObjects {
	p := c.prefix
	o := newMetaObjects()
	for i, st := range c.steps()[:n] {
		switch i {
		case 0:
			o.tables[p+"a"] = c.user
			o.seqs[p+"a_k_seq"] = p + "a.k"
		case 1:
			o.tables[p+"b"] = c.user
		case 2:
			o.views[p+"v"] = c.user
		case 3:
			o.granted[p+"a"], o.granted[p+"b"], o.granted[p+"v"] = true, true, true
		case 4:
			o.roles[p+"r"] = "nologin"
		case 5:
			o.seqs[p+"s"] = p + "a.v"
		case 6:
			o.roles[p+"r"] = "login"
		case 7:
			// TRUNCATE of the log table b: a new table under the name,
			// with b's owner and grants
		case 8:
			delete(o.tables, p+"b")
			delete(o.granted, p+"b")
		case 9:
			o.tables[p+"a2"], o.granted[p+"a2"] = o.tables[p+"a"], o.granted[p+"a"]
			delete(o.tables, p+"a")
			delete(o.granted, p+"a")
			for s, owner := range o.seqs {
				o.seqs[s] = strings.Replace(owner, p+"a.", p+"a2.", 1)
			}
		case 10:
			delete(o.granted, p+"v")
		default:
			switch {
			case st == "DROP VIEW "+p+"v":
				delete(o.views, p+"v")
			case strings.HasPrefix(st, "DROP TABLE "+p+"a2"):
				delete(o.tables, p+"a2")
				delete(o.granted, p+"a2")
				clear(o.seqs)
				delete(o.views, p+"v") // already gone, or by CASCADE
				delete(o.granted, p+"v")
			case st == "DROP ROLE "+p+"r":
				delete(o.roles, p+"r")
			default:
				panic(st)
			}
		}
	}
	return o
}

// metaClient runs cycles on its connection until the server dies.
type metaClient struct {
	id      int
	user    string
	next    int
	cycles  []*metaCycle
	failure error
	acked   int
}

func (m *metaClient) run(conn *pgx.Conn, stop <-chan struct{}) {
	ctx := context.Background()
	for {
		c := &metaCycle{prefix: fmt.Sprintf("c%d_%d_", m.id, m.next), user: m.user}
		m.next++
		m.cycles = append(m.cycles, c)
		for _, st := range c.steps() {
			select {
			case <-stop:
				return
			default:
			}
			c.inFlight = true
			if _, err := conn.Exec(ctx, st); err != nil {
				if code := sqlState(err); code != "" {
					m.failure = fmt.Errorf("client %d: %s: server error %s: %v", m.id, st, code, err)
				}
				return // the server died under it: c.inFlight stays
			}
			c.inFlight = false
			c.done++
			m.acked++
		}
	}
}

// observeMeta reads the catalog's view of every cycle's objects.
func observeMeta(ctx context.Context, conn *pgx.Conn) (metaObjects, error) {
	o := newMetaObjects()
	scan := func(sql string, each func(name, val string)) error {
		rows, err := conn.Query(ctx, sql)
		if err != nil {
			return fmt.Errorf("%s: %w", sql, err)
		}
		defer rows.Close()
		for rows.Next() {
			var name, val string
			if err := rows.Scan(&name, &val); err != nil {
				return err
			}
			each(name, val)
		}
		return rows.Err()
	}
	if err := scan("SELECT tablename::text, tableowner::text FROM pg_tables WHERE schemaname = 'public' AND tablename LIKE 'c%'",
		func(n, v string) { o.tables[n] = v }); err != nil {
		return o, err
	}
	if err := scan("SELECT viewname::text, viewowner::text FROM pg_views WHERE schemaname = 'public' AND viewname LIKE 'c%'",
		func(n, v string) { o.views[n] = v }); err != nil {
		return o, err
	}
	if err := scan("SELECT relname::text, coalesce(array_to_string(relacl, ','), '') FROM pg_class WHERE relname LIKE 'c%' AND relkind IN ('r', 'v')",
		func(n, v string) {
			for _, item := range strings.Split(v, ",") {
				if strings.HasPrefix(item, "reader=") {
					o.granted[n] = true
				}
			}
		}); err != nil {
		return o, err
	}
	if err := scan("SELECT rolname::text, CASE WHEN rolcanlogin THEN 'login' ELSE 'nologin' END FROM pg_roles WHERE rolname LIKE 'c%'",
		func(n, v string) { o.roles[n] = v }); err != nil {
		return o, err
	}
	if err := scan("SELECT relname::text, '' FROM pg_class WHERE relname LIKE 'c%' AND relkind = 'S'",
		func(n, _ string) { o.seqs[n] = "" }); err != nil {
		return o, err
	}
	// Who owns each sequence: pg_get_serial_sequence of every column of
	// the cycles' tables (k of each, v of the a tables).
	for table := range o.tables {
		cols := []string{"k"}
		if !strings.HasSuffix(table, "_b") {
			cols = append(cols, "v")
		}
		for _, col := range cols {
			var seq *string
			if err := conn.QueryRow(ctx, "SELECT pg_get_serial_sequence($1, $2)", table, col).Scan(&seq); err != nil {
				return o, fmt.Errorf("pg_get_serial_sequence(%s, %s): %w", table, col, err)
			}
			if seq == nil {
				continue
			}
			name := strings.TrimPrefix(*seq, "public.")
			if _, listed := o.seqs[name]; !listed {
				return o, fmt.Errorf("pg_get_serial_sequence(%s, %s) is %s, which pg_class does not list", table, col, *seq)
			}
			o.seqs[name] = table + "." + col
		}
	}
	return o, nil
}

// only keeps the objects of one cycle.
func (o metaObjects) only(prefix string) metaObjects {
	out := newMetaObjects()
	for k, v := range o.tables {
		if strings.HasPrefix(k, prefix) {
			out.tables[k] = v
		}
	}
	for k, v := range o.views {
		if strings.HasPrefix(k, prefix) {
			out.views[k] = v
		}
	}
	for k, v := range o.granted {
		if strings.HasPrefix(k, prefix) && v {
			out.granted[k] = v
		}
	}
	for k, v := range o.roles {
		if strings.HasPrefix(k, prefix) {
			out.roles[k] = v
		}
	}
	for k, v := range o.seqs {
		if strings.HasPrefix(k, prefix) {
			out.seqs[k] = v
		}
	}
	return out
}

// verifyMeta resolves each cycle's statement in flight to what recovery
// kept and reports every cycle whose objects match neither outcome.
func verifyMeta(ctx context.Context, conn *pgx.Conn, clients []*metaClient) (resolved int, problems []string) {
	seen, err := observeMeta(ctx, conn)
	if err != nil {
		return 0, []string{err.Error()}
	}
	known := map[string]bool{}
	for _, m := range clients {
		for _, c := range m.cycles {
			known[c.prefix] = true
			got := seen.only(c.prefix)
			if c.inFlight {
				resolved++
			}
			without := c.after(c.done).String()
			switch {
			case got.String() == without:
				c.inFlight = false
			case c.inFlight && c.done < len(c.steps()) && got.String() == c.after(c.done+1).String():
				c.done++ // recovery kept it: from now on it must stay
				c.inFlight = false
			default:
				want := without
				if c.inFlight {
					want += "\n      or " + c.after(c.done+1).String() + " (with the statement in flight)"
				}
				problems = append(problems, fmt.Sprintf("cycle %s after %d acknowledged statements:\n      got  %s\n      want %s", c.prefix, c.done, got, want))
			}
		}
	}
	for name := range seen.tables {
		if p := name[:strings.LastIndex(name, "_")+1]; !known[p] {
			problems = append(problems, "table "+name+" belongs to no cycle")
		}
	}
	for name := range seen.seqs {
		if p, _, _ := strings.Cut(name, "_"); !known[p+"_"+strings.Split(name, "_")[1]+"_"] {
			problems = append(problems, "sequence "+name+" belongs to no cycle")
		}
	}
	// Every view reads: none names a table that is gone, or that was
	// renamed without the view following it.
	for name := range seen.views {
		if _, err := conn.Exec(ctx, "SELECT count(*) FROM "+name); err != nil {
			problems = append(problems, fmt.Sprintf("view %s does not read: %v", name, err))
		}
	}
	return resolved, problems
}

func TestCrashMetadataAllOrNothing(t *testing.T) {
	rounds := envInt(t, "SQLGATE_META_CRASH_ROUNDS", 8)
	var bins testbin.Cache
	bin := bins.Sqlgate(t)
	dir := t.TempDir()
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d, %d rounds", seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 1))
	clients := make([]*metaClient, metaCrashClients)
	for i := range clients {
		clients[i] = &metaClient{id: i + 1, user: fmt.Sprintf("u%d", i+1)}
	}
	proc := startProcess(t, bin, dir)
	// the cycles grant to reader: a GRANT names a role that exists (42704
	// otherwise, as PostgreSQL)
	setup := connect(t, proc.connString())
	if _, err := setup.Exec(context.Background(), "CREATE ROLE reader"); err != nil {
		t.Fatal(err)
	}
	setup.Close(context.Background())
	total := 0
	for round := 1; round <= rounds; round++ {
		cs := make([]string, len(clients))
		for i, m := range clients {
			cs[i] = strings.Replace(proc.connString(), "sqlgate@", m.user+"@", 1)
		}
		killWhileRunning(t, round, proc, cs, 400*time.Millisecond, rng, func(i int, conn *pgx.Conn, stop <-chan struct{}) {
			clients[i].run(conn, stop)
		})
		acked := 0
		for _, m := range clients {
			if m.failure != nil {
				t.Fatalf("round %d: %v", round, m.failure)
			}
			acked += m.acked
			m.acked = 0
		}
		total += acked
		proc = startProcess(t, bin, dir)
		conn := connect(t, proc.connString())
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		inFlight, problems := verifyMeta(ctx, conn, clients)
		cancel()
		conn.Close(context.Background())
		if len(problems) > 0 {
			if len(problems) > 20 {
				problems = append(problems[:20], fmt.Sprintf("... and %d more", len(problems)-20))
			}
			t.Fatalf("round %d (seed %d): after SIGKILL and restart:\n%s", round, seed, joinLines(problems))
		}
		t.Logf("round %d: %d catalog statements acknowledged before SIGKILL, %d in flight resolved whole", round, acked, inFlight)
	}
	if total == 0 {
		t.Fatal("no statement was acknowledged in any round: the workload never ran")
	}
}
