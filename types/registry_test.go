package types

import (
	"testing"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// TestRegistriesApart: two registries (two stores) holding different
// definitions under one OID each answer with their own, through the Ts
// they resolved: names (PGName, String, an array's), text input (an
// enum's labels, a composite's fields), and the definitions by OID.
func TestRegistriesApart(t *testing.T) {
	const oid, rowOID = 900001, 4210000
	ra, rb := NewRegistry(), NewRegistry()
	ra.PublishEnums([]*EnumType{{OID: oid, ArrayOID: oid + 1, Schema: "public", Name: "mood", Labels: []string{"sad", "happy"}}}, nil)
	rb.PublishEnums([]*EnumType{{OID: oid, ArrayOID: oid + 1, Schema: "s", Name: "color", Labels: []string{"red"}}}, nil)
	ra.PublishDomains([]*Domain{{OID: oid + 2, Name: "posint", Base: Int32Type}}, nil)
	ca := ra.PublishComposite(&CompositeType{OID: rowOID, Name: "ta", Fields: []Field{{Name: "x", Type: Int32Type}}})
	cb := rb.PublishComposite(&CompositeType{OID: rowOID, Name: "tb", Fields: []Field{{Name: "p", Type: StringType}, {Name: "q", Type: Int32Type}}})

	bare := T{Kind: String, Variant: Enum, TypeOID: oid}
	ea, eb := ra.Bind(bare), rb.Bind(ArrayOf(bare))
	if bare.Registry() != nil {
		t.Fatal("Bind changed its argument")
	}
	if got := ea.PGName(); got != "mood" {
		t.Errorf("a's enum PGName %q", got)
	}
	if got := eb.PGName(); got != "s.color[]" {
		t.Errorf("b's enum array PGName %q", got)
	}
	if got := ea.String(); got != "mood" {
		t.Errorf("a's enum String %q", got)
	}
	if _, err := ParseText("red", ea); sqlerr.CodeOf(err) != sqlerr.InvalidTextRepresentation {
		t.Errorf("a's enum took b's label: %v", err)
	}
	if v, err := ParseText("red", *eb.Elem); err != nil || v != "red" {
		t.Errorf("b's enum: %v, %v", v, err)
	}
	if _, err := ParseText("sad", bare); sqlerr.CodeOf(err) != sqlerr.UndefinedObject {
		t.Errorf("an enum no registry resolved: %v, want 42704", err)
	}
	if ca.T().PGName() != "ta" || cb.T().PGName() != "tb" || ArrayOf(cb.T()).PGName() != "tb[]" {
		t.Errorf("composite names %q %q %q", ca.T().PGName(), cb.T().PGName(), ArrayOf(cb.T()).PGName())
	}
	if v, err := ParseText("(z,2)", cb.T()); err != nil || len(v.([]any)) != 2 {
		t.Errorf("b's row type input: %v, %v", v, err)
	}
	if ra.Domain(oid+2) == nil || rb.Domain(oid+2) != nil {
		t.Error("a domain of one registry is the other's")
	}
	if ra.Enum(oid).Name != "mood" || rb.Enum(oid).Name != "color" || ra.Composite(rowOID).Name != "ta" {
		t.Error("a definition by OID is not its registry's")
	}
	if (*Registry)(nil).Enum(oid) != nil || (*Registry)(nil).CompositeName(rowOID) != "record" {
		t.Error("a nil registry knows a type")
	}
}
