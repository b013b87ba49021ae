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

// SequenceState is a sequence as pg_sequence and the sequence's own row
// show it: its parameters (TypeOID: its data type's OID) and where it
// stands (Last, Called: PostgreSQL's last_value and is_called).
type SequenceState struct {
	Start, Min, Max, Increment, Cache int64
	Cycle                             bool
	TypeOID                           uint32
	Last                              int64
	Called                            bool
}

// SequenceCatalog is implemented by a CatalogInfo that lists sequences:
// pg_sequence_parameters and pg_sequence_last_value read it.
type SequenceCatalog interface {
	// SequenceByOID is the sequence whose relation OID is oid; ok false
	// when oid names no sequence.
	SequenceByOID(ctx context.Context, oid uint32) (s SequenceState, ok bool, err error)
}

// sequenceParametersRowType is pg_sequence_parameters' OUT parameters.
var sequenceParametersRowType = types.T{Kind: types.Row, Variant: types.AnonRecord, Fields: []types.Field{
	{Name: "start_value", Type: tInt8}, {Name: "minimum_value", Type: tInt8}, {Name: "maximum_value", Type: tInt8},
	{Name: "increment", Type: tInt8}, {Name: "cycle_option", Type: tBool}, {Name: "cache_size", Type: tInt8},
	{Name: "data_type", Type: tOid}}}

// sequenceByOID finds the sequence oid names; isRelation tells, for an OID
// that names none, whether it names another relation.
func sequenceByOID(ctx context.Context, c CatalogInfo, oid uint32) (s SequenceState, ok, isRelation bool, err error) {
	sc, has := c.(SequenceCatalog)
	if !has {
		return SequenceState{}, false, false, sqlerr.New(sqlerr.FeatureNotSupported, "sequences are not available here")
	}
	if s, ok, err = sc.SequenceByOID(ctx, oid); err != nil || ok {
		return s, ok, false, err
	}
	_, isRelation, err = c.RelationName(ctx, oid)
	return s, false, isRelation, err
}

// sequenceInfoFuncs are the functions behind pg_sequences' columns and
// psql's old \d of a sequence. Both read the sequence as the store holds
// it (not transactional, as in PostgreSQL); the caller is the superuser,
// so the privilege checks PostgreSQL makes always pass.
func sequenceInfoFuncs() []*Func {
	return []*Func{
		// last_value, NULL before the first nextval (is_called false)
		{Name: "pg_sequence_last_value", Args: []types.T{types.RegOf(types.RegClass)}, Ret: tInt8, Strict: true, Volatile: true,
			Kernel: withCatalog(tInt8, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				oid := oidArg(a[0])
				s, ok, isRel, err := sequenceByOID(ctx, c, oid)
				switch {
				case err != nil:
					return nil, err
				case isRel:
					cr, err := catalogRowsOf(c)
					if err != nil {
						return nil, err
					}
					r, _, err := cr.CatalogRow(ctx, "pg_class", oid)
					if err != nil {
						return nil, err
					}
					return nil, sqlerr.New(sqlerr.WrongObjectType, "%q is not a sequence", rowString(r, "relname"))
				case !ok:
					return nil, sqlerr.New(sqlerr.InternalError, "could not open relation with OID %d", oid)
				case !s.Called:
					return nil, nil
				}
				return s.Last, nil
			})},
		{Name: "pg_sequence_parameters", Args: []types.T{tOid}, Ret: sequenceParametersRowType, Strict: true,
			Kernel: withCatalog(sequenceParametersRowType, func(ctx context.Context, c CatalogInfo, a []any) (any, error) {
				oid := oidArg(a[0])
				s, ok, isRel, err := sequenceByOID(ctx, c, oid)
				switch {
				case err != nil:
					return nil, err
				case isRel:
					// PostgreSQL finds the relation, then no pg_sequence row
					return nil, sqlerr.New(sqlerr.InternalError, "cache lookup failed for sequence %d", oid)
				case !ok:
					return nil, sqlerr.New(sqlerr.UndefinedTable, "relation with OID %d does not exist", oid)
				}
				return []any{s.Start, s.Min, s.Max, s.Increment, s.Cycle, s.Cache, int64(s.TypeOID)}, nil
			})},
	}
}
