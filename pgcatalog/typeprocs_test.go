package pgcatalog

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	"github.com/sqlgate/sqlgate/internal/pgtest"
)

// TestTypeProcsMatchPostgres checks typeprocs.go against PostgreSQL 15
// both ways: typeProcs holds, for each type pgTypes lists and record
// (a table's row type shows record's), PostgreSQL's typinput, typoutput,
// typreceive, typsend, typmodin, typmodout, typanalyze and typsubscript,
// and no other type; typeProcInfos holds PostgreSQL's pg_proc identity
// (OID, name, argument types, result type) of each of those functions,
// of the access methods' handlers (pg_am.amhandler) and of the range
// types' canonical and subdiff functions (pg_range, ranges.go), and no
// other row. With SQLGATE_WRITE_TYPEPROCS=1 it writes the file instead
// (after pgTypes changes); the pg_proc rows it adds are functionProcs',
// so the generated catalogs read from those regenerate after it
// (procprops.go: TestProcPropsMatchPostgres, then the rest of their
// order).
func TestTypeProcsMatchPostgres(t *testing.T) {
	conn := sharedPG.Conn(t)
	ctx := context.Background()
	oids := []uint32{oidRecord}
	for _, ts := range pgTypes {
		oids = append(oids, ts.oid)
	}
	type typeRow struct {
		oid   uint32
		name  string
		procs [8]uint32
	}
	var types []typeRow
	pgtest.ScanRows(ctx, t, conn, `SELECT oid, typname, typinput::oid, typoutput::oid, typreceive::oid, typsend::oid, typmodin::oid, typmodout::oid,
		typanalyze::oid, typsubscript::oid FROM pg_type WHERE oid = ANY($1) ORDER BY oid`, func(r pgx.Rows) error {
		var row typeRow
		p := row.procs[:]
		if err := r.Scan(&row.oid, &row.name, &p[0], &p[1], &p[2], &p[3], &p[4], &p[5], &p[6], &p[7]); err != nil {
			return err
		}
		types = append(types, row)
		return nil
	}, oids)
	var procs []procInfo
	pgtest.ScanRows(ctx, t, conn, `WITH t AS (SELECT * FROM pg_type WHERE oid = ANY($1)),
		procs AS (SELECT DISTINCT p FROM t, unnest(ARRAY[typinput::oid, typoutput::oid, typreceive::oid, typsend::oid,
		  typmodin::oid, typmodout::oid, typanalyze::oid, typsubscript::oid]) p WHERE p <> 0
		  UNION SELECT amhandler::oid FROM pg_am
		  UNION SELECT f FROM pg_range, unnest(ARRAY[rngcanonical::oid, rngsubdiff::oid]) f WHERE rngtypid = ANY($1) AND f <> 0)
		SELECT p.oid, p.proname, p.proargtypes::oid[], p.prorettype::oid, p.pronargs FROM pg_proc p JOIN procs ON procs.p = p.oid ORDER BY p.oid`, func(r pgx.Rows) error {
		var p procInfo
		var args []uint32
		if err := r.Scan(&p.oid, &p.name, &args, &p.ret, &p.nargs); err != nil {
			return err
		}
		for _, a := range args {
			p.args = append(p.args, a)
		}
		procs = append(procs, p)
		return nil
	}, oids)
	if os.Getenv("SQLGATE_WRITE_TYPEPROCS") != "" {
		var b bytes.Buffer
		b.WriteString("// Code generated from PostgreSQL 15 by TestTypeProcsMatchPostgres; DO NOT EDIT.\n")
		b.WriteString("// Regenerate: SQLGATE_WRITE_TYPEPROCS=1 PGTEST_BIN_DIR=/usr/lib/postgresql/15/bin go test ./pgcatalog -run TestTypeProcsMatchPostgres\n\n")
		b.WriteString("package pgcatalog\n\n// typeProcs are PostgreSQL 15's typinput, typoutput, typreceive, typsend,\n" +
			"// typmodin, typmodout, typanalyze and typsubscript of each type pgTypes\n// lists and of record (0: none).\n")
		b.WriteString("var typeProcs = map[uint32][8]uint32{\n")
		for _, r := range types {
			p := r.procs
			fmt.Fprintf(&b, "\t%d: {%d, %d, %d, %d, %d, %d, %d, %d}, // %s\n", r.oid, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7], r.name)
		}
		b.WriteString("}\n\n// typeProcInfos are those functions, the access methods' handlers\n" +
			"// (pg_am.amhandler) and the range types' canonical and subdiff functions\n" +
			"// (pg_range), with PostgreSQL 15's OIDs, as pg_proc lists them.\nvar typeProcInfos = []procInfo{\n")
		for _, p := range procs {
			fmt.Fprintf(&b, "\t%s,\n", typeProcLiteral(p))
		}
		b.WriteString("}\n")
		pgtest.WriteGoSource(t, "typeprocs.go", b.Bytes())
		return
	}
	want := map[uint32]typeRow{}
	for _, r := range types {
		want[r.oid] = r
		if got, ok := typeProcs[r.oid]; !ok || got != r.procs {
			t.Errorf("typeProcs[%d] (%s) = %v (present %v), PostgreSQL's %v", r.oid, r.name, got, ok, r.procs)
		}
	}
	for oid := range typeProcs {
		if _, ok := want[oid]; !ok {
			t.Errorf("typeProcs[%d]: not a pgTypes type or record (or PostgreSQL has no such type)", oid)
		}
	}
	wantProcs := map[uint32]string{}
	for _, p := range procs {
		wantProcs[p.oid] = typeProcLiteral(p)
	}
	gotProcs := map[uint32]string{}
	for _, p := range typeProcInfos {
		gotProcs[p.oid] = typeProcLiteral(p)
	}
	for oid, w := range wantProcs {
		if g := gotProcs[oid]; g != w {
			t.Errorf("typeProcInfos' row %d is %q, PostgreSQL's %q", oid, g, w)
		}
	}
	for oid, g := range gotProcs {
		if _, ok := wantProcs[oid]; !ok {
			t.Errorf("typeProcInfos' row %d (%s) is no type's I/O function nor an access method's handler", oid, g)
		}
	}
	if len(typeProcInfos) != len(gotProcs) {
		t.Errorf("typeProcInfos has %d rows for %d OIDs", len(typeProcInfos), len(gotProcs))
	}
}

// typeProcLiteral is p's typeProcInfos entry as Go source.
func typeProcLiteral(p procInfo) string {
	args := make([]string, len(p.args))
	for i, a := range p.args {
		args[i] = fmt.Sprintf("uint32(%d)", a)
	}
	return fmt.Sprintf("{oid: %d, name: %q, args: []any{%s}, ret: %d, nargs: %d}", p.oid, p.name, strings.Join(args, ", "), p.ret, p.nargs)
}
