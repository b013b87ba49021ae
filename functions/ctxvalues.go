package functions

import (
	"context"
	"sync"
)

// ctxValues are what kernels read from a statement's context: its clock,
// catalog and session. They live under one context key, so that setting
// all three for every statement (engine, per Execute) costs one context
// value instead of three plus the boxed Clock and Session. Each With*
// copies the values it finds and changes one, so the innermost setting of
// each still wins, as with one key per value.
type ctxValues struct {
	clock      Clock
	hasClock   bool
	catalog    CatalogInfo
	session    Session
	hasSession bool
	// memo is the statement's StatementMemo (nil outside a statement).
	memo *StatementMemo
}

type valuesKey struct{}

// valuesOf returns a copy of ctx's values; zero when it has none.
func valuesOf(ctx context.Context) ctxValues {
	if v, ok := ctx.Value(valuesKey{}).(*ctxValues); ok {
		return *v
	}
	return ctxValues{}
}

// valuesCtx is a context carrying ctxValues: one allocation holds the
// context and the values, where context.WithValue over a *ctxValues takes
// two (WithStatement runs once per prepared Execute). Everything but its
// own key, Done, Err and Deadline included, is the parent's.
type valuesCtx struct {
	context.Context
	v ctxValues
	// memo is the memo of the statement this context begins (set by
	// setStatement); contexts below it share it through v.memo.
	memo StatementMemo
}

func (c *valuesCtx) Value(key any) any {
	if key == (valuesKey{}) {
		return &c.v
	}
	return c.Context.Value(key)
}

// inherited is a context below ctx carrying a copy of ctx's values, for a
// With* to change.
func inherited(ctx context.Context) *valuesCtx {
	return &valuesCtx{Context: ctx, v: valuesOf(ctx)}
}

// WithClock returns a context whose kernels see c as the session clock.
func WithClock(ctx context.Context, c Clock) context.Context {
	vc := inherited(ctx)
	vc.v.clock, vc.v.hasClock = c, true
	return vc
}

// WithCatalog returns a context whose catalog functions read c.
func WithCatalog(ctx context.Context, c CatalogInfo) context.Context {
	vc := inherited(ctx)
	vc.v.catalog = c
	return vc
}

// WithSession returns a context whose session functions report s.
func WithSession(ctx context.Context, s Session) context.Context {
	vc := inherited(ctx)
	vc.v.session, vc.v.hasSession = s, true
	return vc
}

// WithStatement is WithClock, WithCatalog (when c is not nil) and
// WithSession at once: what a statement's execution sets.
func WithStatement(ctx context.Context, clock Clock, c CatalogInfo, s Session) context.Context {
	vc := inherited(ctx)
	vc.setStatement(clock, c, s)
	return vc
}

func (vc *valuesCtx) setStatement(clock Clock, c CatalogInfo, s Session) {
	vc.v.clock, vc.v.hasClock = clock, true
	if c != nil {
		vc.v.catalog = c
	}
	vc.v.session, vc.v.hasSession = s, true
	vc.v.memo = &vc.memo
}

// StatementMemo keeps what a statement's kernels build once and then look
// up row after row, for the rest of that one statement: pgcatalog's index
// of a catalog's generated rows by OID, so that pg_relation_filenode(oid)
// over pg_class's N rows generates pg_class once, not N times. It lives as
// long as the statement's context; a statement sees the catalog as it was
// when it first asked, as PostgreSQL's catalog reads see the statement's
// snapshot. The zero value is empty and ready.
type StatementMemo struct {
	mu sync.Mutex
	m  map[any]any
}

// Memoized returns the value stored under key in ctx's statement memo,
// building and storing it the first time. build runs without the memo's
// lock held (it may itself ask the memo); when two callers race, the first
// value stored wins and both return it. Outside a statement (no memo in
// ctx) it builds every time. An error is returned and not stored.
func Memoized(ctx context.Context, key any, build func() (any, error)) (any, error) {
	m := valuesOf(ctx).memo
	if m == nil {
		return build()
	}
	m.mu.Lock()
	v, ok := m.m[key]
	m.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := build()
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.m[key]; ok {
		return old, nil
	}
	if m.m == nil {
		m.m = map[any]any{}
	}
	m.m[key] = v
	return v, nil
}

// StatementContext is WithStatement's context in storage its caller owns:
// the engine keeps one in each execution's state, which is allocated per
// statement anyway, so that a prepared Execute allocates no context of its
// own. The zero value is ready for Init.
type StatementContext struct {
	vc valuesCtx
}

// Init makes sc the context WithStatement(ctx, clock, c, s) would return,
// and returns it. It must not be called again while the context it
// returned before is in use.
func (sc *StatementContext) Init(ctx context.Context, clock Clock, c CatalogInfo, s Session) context.Context {
	sc.vc = valuesCtx{Context: ctx, v: valuesOf(ctx)}
	sc.vc.setStatement(clock, c, s)
	return &sc.vc
}
