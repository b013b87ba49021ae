package functions

import "context"

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
}

type valuesKey struct{}

// valuesOf returns a copy of ctx's values; zero when it has none.
func valuesOf(ctx context.Context) ctxValues {
	if v, ok := ctx.Value(valuesKey{}).(*ctxValues); ok {
		return *v
	}
	return ctxValues{}
}

// withValues returns ctx carrying v.
func withValues(ctx context.Context, v *ctxValues) context.Context {
	return context.WithValue(ctx, valuesKey{}, v)
}

// inherited is a copy of ctx's values, for a With* to change.
func inherited(ctx context.Context) *ctxValues {
	v := valuesOf(ctx)
	return &v
}

// WithClock returns a context whose kernels see c as the session clock.
func WithClock(ctx context.Context, c Clock) context.Context {
	v := inherited(ctx)
	v.clock, v.hasClock = c, true
	return withValues(ctx, v)
}

// WithCatalog returns a context whose catalog functions read c.
func WithCatalog(ctx context.Context, c CatalogInfo) context.Context {
	v := inherited(ctx)
	v.catalog = c
	return withValues(ctx, v)
}

// WithSession returns a context whose session functions report s.
func WithSession(ctx context.Context, s Session) context.Context {
	v := inherited(ctx)
	v.session, v.hasSession = s, true
	return withValues(ctx, v)
}

// WithStatement is WithClock, WithCatalog (when c is not nil) and
// WithSession at once: what a statement's execution sets.
func WithStatement(ctx context.Context, clock Clock, c CatalogInfo, s Session) context.Context {
	v := inherited(ctx)
	v.clock, v.hasClock = clock, true
	if c != nil {
		v.catalog = c
	}
	v.session, v.hasSession = s, true
	return withValues(ctx, v)
}
