package engine

import (
	"context"
	"testing"

	"github.com/sqlgate/sqlgate/fluss/embedded"
	"github.com/sqlgate/sqlgate/pgwire"
)

type fakeProgress struct {
	started []string
	bytes   int64
	done    bool
}

func (f *fakeProgress) StartFileCopy(pid int32, relOID uint32, command, typ string, total int64) pgwire.CopyProgress {
	f.started = append(f.started, command+" "+typ)
	return f
}
func (f *fakeProgress) Add(b, _ int64) { f.bytes += b }
func (f *fakeProgress) Done()          { f.done = true }

// TestCopyProgressHook: a file COPY's progress reaches Options.CopyProgress
// with PostgreSQL's command and type words; without one nothing fails.
func TestCopyProgressHook(t *testing.T) {
	store, err := embedded.Open(t.TempDir(), embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	fp := &fakeProgress{}
	for _, opts := range []Options{{CopyProgress: fp}, {}} {
		e := New(store, opts)
		ps, err := e.NewSession(context.Background(), pgwire.SessionInfo{User: "u", Database: "d", ProcessID: 3})
		if err != nil {
			t.Fatal(err)
		}
		p := ps.(*session).startCopyProgress(16385, true, "FILE", 10)
		p.Add(10, 1)
		p.Done()
		ps.Close()
	}
	if len(fp.started) != 1 || fp.started[0] != "COPY FROM FILE" || fp.bytes != 10 || !fp.done {
		t.Errorf("progress: %+v", fp)
	}
}
