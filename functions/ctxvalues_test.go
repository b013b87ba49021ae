package functions

import (
	"context"
	"errors"
	"testing"
	"time"
)

type otherKey struct{}

// TestStatementContext: the context WithStatement and the other With*
// return carries their values (the innermost setting of each winning) and
// is otherwise its parent: other values, cancellation, deadline.
func TestStatementContext(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	t1 := t0.Add(time.Hour)
	deadline := t0.Add(24 * time.Hour)
	parent, cancel := context.WithDeadline(context.WithValue(context.Background(), otherKey{}, "kept"), deadline)
	defer cancel()
	for _, tc := range []struct {
		name      string
		ctx       context.Context
		clock     time.Time
		user      string
		hasClock  bool
		hasCancel bool
	}{
		{"statement", WithStatement(parent, Clock{StatementStart: t0}, nil, Session{User: "u"}), t0, "u", true, true},
		{"inner statement wins", WithStatement(WithStatement(parent, Clock{StatementStart: t0}, nil, Session{User: "u"}), Clock{StatementStart: t1}, nil, Session{User: "v"}), t1, "v", true, true},
		{"session keeps clock", WithSession(WithClock(parent, Clock{StatementStart: t0}), Session{User: "w"}), t0, "w", true, true},
		{"statement in caller's storage", new(StatementContext).Init(parent, Clock{StatementStart: t0}, nil, Session{User: "u"}), t0, "u", true, true},
		{"caller's storage under a statement", new(StatementContext).Init(WithStatement(parent, Clock{StatementStart: t0}, nil, Session{User: "u"}), Clock{StatementStart: t1}, nil, Session{User: "v"}), t1, "v", true, true},
		{"caller's storage keeps the parent's clock for a session", WithSession(new(StatementContext).Init(parent, Clock{StatementStart: t1}, nil, Session{User: "u"}), Session{User: "w"}), t1, "w", true, true},
		{"no values", context.WithValue(context.Background(), otherKey{}, "kept"), time.Time{}, "", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := valuesOf(tc.ctx)
			if v.hasClock != tc.hasClock || !v.clock.StatementStart.Equal(tc.clock) || v.session.User != tc.user {
				t.Errorf("values %+v, want clock %v user %q", v, tc.clock, tc.user)
			}
			if got := tc.ctx.Value(otherKey{}); got != "kept" {
				t.Errorf("parent's value %v", got)
			}
			if d, ok := tc.ctx.Deadline(); ok != tc.hasCancel || (ok && !d.Equal(deadline)) {
				t.Errorf("deadline %v %v", d, ok)
			}
		})
	}
	// Cancelling the parent cancels the derived context, and a context
	// derived from it again is cancelled with it.
	p2, cancel2 := context.WithCancel(context.Background())
	ctx := WithStatement(p2, Clock{}, nil, Session{})
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	cancel2()
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("child not cancelled")
	}
	if !errors.Is(ctx.Err(), context.Canceled) || !errors.Is(child.Err(), context.Canceled) {
		t.Errorf("errors %v, %v", ctx.Err(), child.Err())
	}
}

// TestMemoized: a statement's memo builds a key's value once for the whole
// statement (contexts below it included), a new statement (WithStatement
// or StatementContext.Init again) builds it again, an error is not kept,
// and outside a statement every call builds.
func TestMemoized(t *testing.T) {
	builds := 0
	build := func() (any, error) { builds++; return builds, nil }
	ask := func(ctx context.Context, key any) any {
		t.Helper()
		v, err := Memoized(ctx, key, build)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	var sc StatementContext
	for _, tc := range []struct {
		name       string
		ctx        func() context.Context
		wantBuilds int // after asking twice for "a" and once for "b" (and "a" below)
	}{
		{"WithStatement", func() context.Context { return WithStatement(context.Background(), Clock{}, nil, Session{}) }, 2},
		{"StatementContext", func() context.Context { return sc.Init(context.Background(), Clock{}, nil, Session{}) }, 2},
		{"StatementContext again", func() context.Context { return sc.Init(context.Background(), Clock{}, nil, Session{}) }, 2},
		{"no statement", func() context.Context { return WithClock(context.Background(), Clock{}) }, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			builds = 0
			ctx := tc.ctx()
			first := ask(ctx, "a")
			if second := ask(ctx, "a"); (second == first) != (tc.wantBuilds == 2) {
				t.Errorf("second ask %v, first %v", second, first)
			}
			ask(ctx, "b")
			ask(WithSession(ctx, Session{User: "u"}), "a")
			if builds != tc.wantBuilds {
				t.Errorf("%d builds, want %d", builds, tc.wantBuilds)
			}
		})
	}
	ctx := WithStatement(context.Background(), Clock{}, nil, Session{})
	boom := errors.New("boom")
	if _, err := Memoized(ctx, "e", func() (any, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("error %v", err)
	}
	if v, err := Memoized(ctx, "e", func() (any, error) { return 7, nil }); err != nil || v != 7 {
		t.Errorf("after an error: %v %v", v, err)
	}
}
