package pgoper

import "sync"

// Cast is one pg_cast row, with its function's pg_proc identity (0 and
// "" for a binary-coercible or I/O conversion cast) when sqlgate binds a
// call of that function with its arguments (FuncCallable).
type Cast struct {
	OID     uint32
	Source  uint32
	Target  uint32
	Func    uint32
	Context byte // castcontext: 'e' explicit, 'a' assignment, 'i' implicit
	Method  byte // castmethod: 'f' function, 'i' I/O conversion, 'b' binary coercible
	// FuncName, FuncArgs, FuncRet and FuncComment are the function's
	// proname, proargtypes, prorettype and obj_description; FuncCallable says the function is
	// callable in sqlgate by that name with those argument types.
	FuncName     string
	FuncArgs     []uint32
	FuncRet      uint32
	FuncComment  string
	FuncCallable bool
}

// Casts lists the casts between types sqlgate has that it performs, by
// OID.
func Casts() []Cast { return casts }

// castIndex is casts by source and target type, built once.
var castIndex = sync.OnceValue(func() map[[2]uint32]*Cast {
	m := make(map[[2]uint32]*Cast, len(casts))
	for i := range casts {
		m[[2]uint32{casts[i].Source, casts[i].Target}] = &casts[i]
	}
	return m
})

// CastOf is the pg_cast row from source to target; ok false when there
// is none among Casts.
func CastOf(source, target uint32) (*Cast, bool) {
	c, ok := castIndex()[[2]uint32{source, target}]
	return c, ok
}
