package types

import (
	"sync"
	"sync/atomic"
)

// Registry holds one catalog's user-defined types by OID: its enum
// types (enum.go), domains (domain.go) and composite types (composite.go,
// a table's row type among them). Its owner is the catalog's owner (an
// engine, one per store), which publishes into it; a process may serve
// several stores (the slt runner's in-process servers, tests), whose
// OIDs meet (a table's row type's OID follows from its table's ID), so
// no registry is shared between them.
//
// A value of a user-defined type finds its definition from its T: the
// registry that resolved the type (Bind, EnumType.T, CompositeType.T)
// travels in the T, so that output names, text input and ordering need
// no other argument. A nil *Registry knows no type.
type Registry struct {
	composites oidRegistry[*CompositeType]
	enums      oidRegistry[*EnumType]
	domains    oidRegistry[*Domain]
}

// NewRegistry is an empty registry.
func NewRegistry() *Registry { return &Registry{} }

// Bind is t with r as the registry of every enum and composite type in
// it (its elements and fields too): the column types a table's
// descriptor holds name their user-defined types by OID alone. Parts of
// t that change are copied; t's own are left alone.
func (r *Registry) Bind(t T) T {
	if !r.needsBind(&t) {
		return t
	}
	if t.IsEnum() || t.IsComposite() {
		t.reg = r
	}
	if t.Elem != nil && r.needsBind(t.Elem) {
		e := r.Bind(*t.Elem)
		t.Elem = &e
	}
	if t.Key != nil && r.needsBind(t.Key) {
		k := r.Bind(*t.Key)
		t.Key = &k
	}
	for i := range t.Fields {
		if r.needsBind(&t.Fields[i].Type) {
			fs := make([]Field, len(t.Fields))
			copy(fs, t.Fields)
			for j := range fs {
				fs[j].Type = r.Bind(fs[j].Type)
			}
			t.Fields = fs
			break
		}
	}
	return t
}

// Binds reports whether Bind would leave t as it is: every enum and
// composite type in it has r already.
func (r *Registry) Binds(t T) bool { return !r.needsBind(&t) }

// needsBind reports whether some enum or composite type in t has a
// registry other than r.
func (r *Registry) needsBind(t *T) bool {
	if (t.IsEnum() || t.IsComposite()) && t.reg != r {
		return true
	}
	if t.Elem != nil && r.needsBind(t.Elem) || t.Key != nil && r.needsBind(t.Key) {
		return true
	}
	for i := range t.Fields {
		if r.needsBind(&t.Fields[i].Type) {
			return true
		}
	}
	return false
}

// Registry is the registry that resolved t's user-defined type (nil for
// other types, and for one no registry resolved).
func (t T) Registry() *Registry { return t.reg }

// oidRegistry holds published definitions by OID (enum types, domains),
// replaced whole on each publish so that readers take a map without a
// lock: a kernel or the catalog finds a definition from its OID alone.
type oidRegistry[D any] struct {
	mu sync.Mutex // serialises publishers
	m  atomic.Pointer[map[uint32]D]
}

// publish makes defs the definitions of their OIDs (oidOf) and forgets the
// OIDs in gone.
func (r *oidRegistry[D]) publish(defs []D, oidOf func(D) uint32, gone []uint32) {
	r.mu.Lock()
	defer r.mu.Unlock()
	m := map[uint32]D{}
	if cur := r.m.Load(); cur != nil {
		for k, v := range *cur {
			m[k] = v
		}
	}
	for _, oid := range gone {
		delete(m, oid)
	}
	for _, d := range defs {
		m[oidOf(d)] = d
	}
	r.m.Store(&m)
}

// get is the published definition of oid, the zero D when there is none.
func (r *oidRegistry[D]) get(oid uint32) D {
	var zero D
	if m := r.m.Load(); m != nil {
		return (*m)[oid]
	}
	return zero
}
