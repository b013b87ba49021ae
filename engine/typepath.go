package engine

import (
	"context"
)

// onTypePath finds a user-defined type as PostgreSQL's LookupTypeName
// does: a qualified name in its schema, an unqualified one in the first
// schema of the session's search path (its temporary schema first) that
// holds a type of that name; a type in a schema off the path is not found
// by its bare name (ALTER TYPE ... SET SCHEMA moves it out of reach).
// find is the engine's lookup of schema.name. Without a session, the
// engine's own rule for an unqualified name applies.
func onTypePath[T any](s *session, schema, name string, find func(schema, name string) (T, bool)) (T, bool) {
	if schema != "" || s == nil {
		return find(schema, name)
	}
	var none T
	path, err := s.eng.tables.existingPath(s.sessionCtx(context.Background()))
	if err != nil {
		return none, false
	}
	for _, p := range path {
		if t, ok := find(p, name); ok {
			return t, true
		}
	}
	return none, false
}
