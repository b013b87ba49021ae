package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Sequences is what the sequence functions (nextval, currval, setval,
// lastval) ask of the session: a sequence is named by its relation OID
// (regclass), and currval and lastval are the session's own state, as in
// PostgreSQL.
type Sequences interface {
	NextVal(ctx context.Context, oid uint32) (int64, error)
	CurrVal(ctx context.Context, oid uint32) (int64, error)
	SetVal(ctx context.Context, oid uint32, v int64, called bool) (int64, error)
	LastVal(ctx context.Context) (int64, error)
}

func sequenceFuncs() []*Func {
	reg := types.RegOf(types.RegClass)
	return []*Func{
		{Name: "nextval", Args: []types.T{reg}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: rowFunc(tInt8, true, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.NextVal(ctx, oidArg(a[0]))
			})},
		{Name: "currval", Args: []types.T{reg}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: rowFunc(tInt8, true, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.CurrVal(ctx, oidArg(a[0]))
			})},
		{Name: "lastval", Ret: tInt8, Volatile: true,
			Kernel: rowFunc(tInt8, false, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.LastVal(ctx)
			})},
		{Name: "setval", Args: []types.T{reg, tInt8}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: rowFunc(tInt8, true, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.SetVal(ctx, oidArg(a[0]), a[1].(int64), true)
			})},
		{Name: "setval", Args: []types.T{reg, tInt8, tBool}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: rowFunc(tInt8, true, func(ctx context.Context, a []any) (any, error) {
				s, err := sequencesOf(ctx)
				if err != nil {
					return nil, err
				}
				return s.SetVal(ctx, oidArg(a[0]), a[1].(int64), a[2].(bool))
			})},
	}
}

func sequencesOf(ctx context.Context) (Sequences, error) {
	if s := sessionOf(ctx).Sequences; s != nil {
		return s, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "sequences are not available here")
}

// SequenceRewinder is implemented by a session's Sequences that can take
// back what nextval did since a mark: an executor that evaluated a batch
// of rows ahead of PostgreSQL's row-at-a-time order (the rows after one
// that failed, rows a cursor was not asked for yet) gives the values those
// rows drew back, so that the sequence and currval stand where
// PostgreSQL's would (exec/roworder.go).
type SequenceRewinder interface {
	// Mark starts recording the calls of nextval and setval until the
	// matching Unmark; marks nest. The mark names the calls after it.
	Mark() int
	Unmark(mark int)
	// Rewind takes back the calls since mark: of each sequence nextval
	// was called exactly rows times for (once per row of a batch of rows
	// rows, in row order), all but its first keep (rows < 0: of every
	// sequence, all). A sequence that another session advanced since, or
	// that setval changed, is left as it is; ok is false when one was.
	Rewind(ctx context.Context, mark int, rows, keep int) (ok bool)
}

// SequenceMark is the session's Mark, and false when its sequences cannot
// be rewound (no session, or a store without them).
func SequenceMark(ctx context.Context) (int, bool) {
	r, ok := valuesOf(ctx).session.Sequences.(SequenceRewinder)
	if !ok {
		return 0, false
	}
	return r.Mark(), true
}

// SequenceUnmark ends a mark SequenceMark made.
func SequenceUnmark(ctx context.Context, mark int) {
	if r, ok := valuesOf(ctx).session.Sequences.(SequenceRewinder); ok {
		r.Unmark(mark)
	}
}

// RewindSequences is the session's Rewind; true when nothing needed
// taking back.
func RewindSequences(ctx context.Context, mark int, rows, keep int) bool {
	r, ok := valuesOf(ctx).session.Sequences.(SequenceRewinder)
	if !ok {
		return true
	}
	return r.Rewind(ctx, mark, rows, keep)
}
