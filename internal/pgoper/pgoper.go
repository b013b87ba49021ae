package pgoper

import (
	"strconv"
	"strings"
	"sync"
)

// Operator is one pg_operator row, with its implementing function's
// pg_proc identity (the function's arguments are the operator's operands,
// its result the operator's).
type Operator struct {
	OID      uint32
	Name     string
	Kind     byte // oprkind: 'b' infix, 'l' prefix
	Left     uint32
	Right    uint32
	Result   uint32
	Com      uint32
	Negate   uint32
	CanMerge bool
	CanHash  bool
	Code     string // oprcode's proname
	CodeOID  uint32
	Rest     uint32 // oprrest and oprjoin: selectivity estimators' pg_proc OIDs
	Join     uint32
	// Comment is obj_description(oid, 'pg_operator'); CodeComment the
	// implementing function's obj_description.
	Comment     string
	CodeComment string
	// LeftType, RightType and ResultType are the types' names as
	// format_type prints them ("" for a prefix operator's left), which
	// the binder reads as type names.
	LeftType, RightType, ResultType string
}

// All lists the operators, by OID.
func All() []Operator { return operators }

// Operands are the operator's operand types: one for a prefix operator.
func (o *Operator) Operands() []uint32 {
	if o.Kind == 'l' {
		return []uint32{o.Right}
	}
	return []uint32{o.Left, o.Right}
}

type index struct {
	byOID  map[uint32]*Operator
	byCode map[string][]*Operator
	byName map[string][]*Operator
}

var indexes = sync.OnceValue(func() index {
	ix := index{byOID: map[uint32]*Operator{}, byCode: map[string][]*Operator{}, byName: map[string][]*Operator{}}
	for i := range operators {
		o := &operators[i]
		ix.byOID[o.OID] = o
		ix.byCode[o.Code] = append(ix.byCode[o.Code], o)
		ix.byName[o.Name] = append(ix.byName[o.Name], o)
	}
	return ix
})

// ByOID is the operator of that OID.
func ByOID(oid uint32) (*Operator, bool) {
	o, ok := indexes().byOID[oid]
	return o, ok
}

// ByCode are the operators a function of that name implements (each
// function implements one operator; a name may have overloads).
func ByCode(name string) []*Operator { return indexes().byCode[strings.ToLower(name)] }

// ByName are the operators of that name (+, ~~ ...).
func ByName(name string) []*Operator { return indexes().byName[name] }

// Signature is the operator as regoperator prints it, with its operand
// types' names as typeName gives them: +(integer,integer), -(NONE,integer).
func (o *Operator) Signature(typeName func(uint32) string) string {
	left := "NONE"
	if o.Kind != 'l' {
		left = typeName(o.Left)
	}
	return o.Name + "(" + left + "," + typeName(o.Right) + ")"
}

// key is the operator's name and operands as the generator compares them.
func (o *Operator) key() string {
	return o.Name + "(" + strconv.FormatUint(uint64(o.Left), 10) + "," + strconv.FormatUint(uint64(o.Right), 10) + ")"
}
