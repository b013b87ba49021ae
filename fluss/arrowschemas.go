package fluss

import (
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
)

// ArrowSchemas keeps the Arrow schemas built from one version of a table's
// schema (the whole row, the primary key, a projection's columns), keyed by
// whatever the builder names them by. Planning a statement over a table
// builds several such schemas, and arrow.NewSchema allocates a name index
// per schema: a quarter of a point lookup's planning allocations. The
// schemas are immutable, so every plan may share them.
//
// A catalog makes one per table schema version and puts it in the
// TableInfo it hands out (TableInfo.ArrowSchemas); every copy of the info
// shares it. A changed schema is a new TableInfo with a new cache, so an
// entry is never stale. The zero of the pointer (nil) caches nothing.
type ArrowSchemas struct {
	mu sync.Mutex
	m  map[string]*arrow.Schema
}

// maxArrowSchemas bounds one table's cache: keys name projections, of which
// a table has many possible, and a workload uses a few.
const maxArrowSchemas = 64

// NewArrowSchemas returns an empty cache.
func NewArrowSchemas() *ArrowSchemas {
	return &ArrowSchemas{m: make(map[string]*arrow.Schema)}
}

// Get returns the schema cached under key, or builds it with build and
// caches it. key is only read during the call (a []byte converted in the
// call does not allocate). On a nil cache Get just builds.
func (c *ArrowSchemas) Get(key []byte, build func() *arrow.Schema) *arrow.Schema {
	if c == nil {
		return build()
	}
	c.mu.Lock()
	s, ok := c.m[string(key)]
	c.mu.Unlock()
	if ok {
		return s
	}
	// built outside the lock: two plans racing build the same schema twice,
	// and either copy is right
	s = build()
	c.mu.Lock()
	if len(c.m) < maxArrowSchemas {
		c.m[string(key)] = s
	}
	c.mu.Unlock()
	return s
}
