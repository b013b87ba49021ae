package pgtypes

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/sqlgate/sqlgate/types"
)

// RegNamer prints a value of a reg* type (types.RegClass ...) as
// PostgreSQL's output function does: a relation's name, qualified when its
// schema is not on the search path, a type as format_type spells it ... ok
// false prints the number (PostgreSQL's answer when no object has that
// OID). The session supplies it, since the answer depends on its catalog
// and search_path.
type RegNamer func(v types.Variant, oid uint32) (name string, ok bool)

// regEncoder is the text output of a reg* column: the name its RegNamer
// gives, the OID's digits without one. Names are cached per result (a
// column of pg_class.oid::regclass asks once per OID).
type regEncoder struct {
	intEncoder[uint32]
	variant types.Variant
	namer   RegNamer
	cache   map[uint32]string
}

func (e *regEncoder) reset(arr arrow.Array) error { return e.intEncoder.reset(arr) }

func (e *regEncoder) appendValue(dst []byte, row int) []byte {
	if e.namer == nil {
		return e.intEncoder.appendValue(dst, row)
	}
	oid := e.vals[row]
	name, ok := e.cache[oid]
	if !ok {
		var found bool
		if name, found = e.namer(e.variant, oid); !found {
			name = string(appendUintDecimal(nil, uint64(oid)))
		}
		if e.cache == nil {
			e.cache = map[uint32]string{}
		}
		e.cache[oid] = name
	}
	return append(dst, name...)
}

// regEncoders are the reg* encoders among cols: the columns themselves and
// the elements of reg* arrays.
func regEncoders(cols []valueEncoder) []*regEncoder {
	var out []*regEncoder
	for _, c := range cols {
		switch e := c.(type) {
		case *regEncoder:
			out = append(out, e)
		case *pgArrayEncoder:
			if r, ok := e.elem.(*regEncoder); ok {
				out = append(out, r)
			}
		case *mdArrayEncoder:
			if r, ok := e.leaf.(*regEncoder); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

// SetRegNamer makes the encoder's reg* columns (text format) print names
// through n, forgetting the names an earlier namer gave; nil prints OIDs.
// Call it before each execution whose catalog or search_path may differ.
func (e *RowEncoder) SetRegNamer(n RegNamer) {
	for _, r := range e.regs {
		r.namer, r.cache = n, nil
	}
}

// HasReg reports whether any column prints through a RegNamer, so that a
// caller can skip building one.
func (e *RowEncoder) HasReg() bool { return len(e.regs) > 0 }
