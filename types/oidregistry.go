package types

import (
	"sync"
	"sync/atomic"
)

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
