package pgcatalog

import (
	"testing"

	"github.com/sqlgate/sqlgate/internal/pgproc"
)

// Every built-in's pg_proc signature that PostgreSQL has under a
// polymorphic one is listed as PostgreSQL's, and the rule never maps a
// signature onto one PostgreSQL lacks.
func TestPolymorphicProcArgs(t *testing.T) {
	sigs := pgSignatures()
	byName := map[string][]uint32{}
	for _, p := range functionProcs() {
		args := make([]uint32, len(p.args))
		for i, a := range p.args {
			args[i] = a.(uint32)
		}
		sig := pgproc.Signature(p.name, args)
		byName[sig] = args
		// what polyArgs left as declared has no unique polymorphic
		// PostgreSQL signature it stands for
		if _, ok := pgproc.Of(sig); !ok {
			n := 0
			for _, s := range sigs[p.name] {
				if len(s) == len(args) && standsFor(args, s) {
					n++
				}
			}
			if n == 1 {
				t.Errorf("%s: stands for one PostgreSQL signature but was left as declared", sig)
			}
		}
	}
	for _, want := range []string{
		pgproc.Signature("array_length", []uint32{oidAnyArray, 23}),
		pgproc.Signature("array_cat", []uint32{oidAnyCompatibleArray, oidAnyCompatibleArray}),
		pgproc.Signature("array_fill", []uint32{oidAnyElement, 1007, 1007}),
		pgproc.Signature("array_to_string", []uint32{oidAnyArray, 25}),
		pgproc.Signature("jsonb_delete_path", []uint32{3802, 1009}), // a real text[] stays
	} {
		if _, ok := byName[want]; !ok {
			t.Errorf("pg_proc has no %s", want)
		}
	}
	if _, ok := byName[pgproc.Signature("array_length", []uint32{1009, 23})]; ok {
		t.Errorf("array_length(text[],int4) is still listed")
	}
}

func TestPolyArgsAmbiguousLeftAlone(t *testing.T) {
	sigs := map[string][][]uint32{"f": {{oidAnyArray}, {oidAnyCompatibleArray}}}
	args := []any{uint32(1009)}
	ret := uint32(1009)
	if polyArgs("f", args, &ret, sigs) || args[0] != uint32(1009) {
		t.Errorf("an ambiguous match rewrote the arguments: %v", args)
	}
	sigs = map[string][][]uint32{"f": {{oidAnyArray}}}
	if !polyArgs("f", args, &ret, sigs) || args[0] != uint32(oidAnyArray) || ret != oidAnyArray {
		t.Errorf("a unique match was not taken: %v returning %d", args, ret)
	}
}
