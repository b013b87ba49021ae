package isolation

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// Isolation specs, in the spirit of PostgreSQL's isolation tester: a
// testdata/*.spec file runs steps of two or three sessions in a fixed
// interleaving and says what each step answers, including which steps
// block. Every spec runs against sqlgate and against PostgreSQL 15, which
// must both give the expected outcome of every step.
//
// Format, one directive per line ('#' starts a comment line):
//
//	setup: SQL              run before the steps, on a connection of its own
//	s1: SQL => OUTCOME      session s1 sends SQL (simple protocol)
//	s1: <= OUTCOME          s1's blocked step completes with OUTCOME
//	s1: cancel              cancel s1's running statement (CancelRequest)
//
// OUTCOME is one of:
//
//	blocks                  the step has not completed after blockWait
//	error CODE              it fails with SQLSTATE CODE
//	rows A|B, C|D           it returns these rows (text, NULL as null;
//	                        "rows" alone: none)
//	TAG                     anything else: the command tag, as "UPDATE 1"
//
// A step that does not block must complete within stepTimeout.

const (
	blockWait   = 300 * time.Millisecond
	stepTimeout = 15 * time.Second
)

type specStep struct {
	line    int
	session string
	sql     string // "" for <= and cancel
	await   bool
	cancel  bool
	want    string
}

type spec struct {
	setup []string
	steps []specStep
	names []string
}

func parseSpec(path string) (*spec, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	sp := &spec{}
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		head, rest, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("%s:%d: want NAME: ...", path, n)
		}
		rest = strings.TrimSpace(rest)
		if head == "setup" {
			sp.setup = append(sp.setup, rest)
			continue
		}
		st := specStep{line: n, session: head}
		switch {
		case rest == "cancel":
			st.cancel = true
		case strings.HasPrefix(rest, "<="):
			st.await, st.want = true, strings.TrimSpace(strings.TrimPrefix(rest, "<="))
		default:
			q, want, ok := strings.Cut(rest, "=>")
			if !ok {
				return nil, fmt.Errorf("%s:%d: want SQL => OUTCOME", path, n)
			}
			st.sql, st.want = strings.TrimSpace(q), strings.TrimSpace(want)
		}
		if !seen[head] {
			seen[head] = true
			sp.names = append(sp.names, head)
		}
		sp.steps = append(sp.steps, st)
	}
	return sp, sc.Err()
}

// outcome renders what a statement answered the way specs write it.
func outcome(res []*pgconn.Result, err error) string {
	if err != nil {
		var pe *pgconn.PgError
		if errors.As(err, &pe) {
			return "error " + pe.Code
		}
		return "error " + err.Error()
	}
	if len(res) == 0 {
		return ""
	}
	r := res[len(res)-1]
	if r.Err != nil {
		return outcome(nil, r.Err)
	}
	if len(r.FieldDescriptions) == 0 && !r.CommandTag.Select() {
		return r.CommandTag.String()
	}
	var rows []string
	for _, row := range r.Rows {
		vals := make([]string, len(row))
		for i, v := range row {
			if v == nil {
				vals[i] = "null"
			} else {
				vals[i] = string(v)
			}
		}
		rows = append(rows, strings.Join(vals, "|"))
	}
	return strings.TrimSpace("rows " + strings.Join(rows, ", "))
}

type running struct {
	done chan string
}

// runSpec runs sp against the server at conn.
func runSpec(t *testing.T, conn string, sp *spec) {
	ctx := context.Background()
	setup, err := pgconn.Connect(ctx, conn)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range sp.setup {
		if _, err := setup.Exec(ctx, q).ReadAll(); err != nil {
			t.Fatalf("setup %q: %v", q, err)
		}
	}
	setup.Close(ctx)
	conns := map[string]*pgconn.PgConn{}
	inflight := map[string]*running{}
	for _, name := range sp.names {
		c, err := pgconn.Connect(ctx, conn)
		if err != nil {
			t.Fatal(err)
		}
		conns[name] = c
	}
	defer func() {
		// Sessions still waiting are abandoned by closing every
		// connection; their transactions roll back.
		for _, c := range conns {
			c.Close(ctx)
		}
		for _, r := range inflight {
			select {
			case <-r.done:
			case <-time.After(stepTimeout):
			}
		}
	}()
	for _, st := range sp.steps {
		c := conns[st.session]
		switch {
		case st.cancel:
			if err := c.CancelRequest(ctx); err != nil {
				t.Fatalf("line %d: cancel: %v", st.line, err)
			}
			continue
		case st.await:
			r := inflight[st.session]
			if r == nil {
				t.Fatalf("line %d: %s has no blocked step", st.line, st.session)
			}
			select {
			case got := <-r.done:
				delete(inflight, st.session)
				if got != st.want {
					t.Fatalf("line %d: %s's blocked step answered %q, want %q", st.line, st.session, got, st.want)
				}
			case <-time.After(stepTimeout):
				t.Fatalf("line %d: %s's blocked step did not complete", st.line, st.session)
			}
			continue
		}
		if inflight[st.session] != nil {
			t.Fatalf("line %d: %s is still blocked", st.line, st.session)
		}
		r := &running{done: make(chan string, 1)}
		go func(q string) {
			res, err := c.Exec(context.Background(), q).ReadAll()
			r.done <- outcome(res, err)
		}(st.sql)
		if st.want == "blocks" {
			select {
			case got := <-r.done:
				t.Fatalf("line %d: %s: %s answered %q, want it to block", st.line, st.session, st.sql, got)
			case <-time.After(blockWait):
				inflight[st.session] = r
			}
			continue
		}
		select {
		case got := <-r.done:
			if got != st.want {
				t.Fatalf("line %d: %s: %s answered %q, want %q", st.line, st.session, st.sql, got, st.want)
			}
		case <-time.After(stepTimeout):
			inflight[st.session] = r
			t.Fatalf("line %d: %s: %s blocked, want %q", st.line, st.session, st.sql, st.want)
		}
	}
}

// TestIsolationSpecs runs every testdata/*.spec against sqlgate and
// PostgreSQL 15.
func TestIsolationSpecs(t *testing.T) {
	files, err := filepath.Glob("testdata/*.spec")
	if err != nil || len(files) == 0 {
		t.Fatalf("no specs: %v", err)
	}
	tgs := targets(t)
	for _, f := range files {
		sp, err := parseSpec(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range tgs {
			t.Run(strings.TrimSuffix(filepath.Base(f), ".spec")+"/"+tg.name, func(t *testing.T) {
				runSpec(t, tg.conn, sp)
			})
		}
	}
}
