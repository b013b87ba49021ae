package engine

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// ALTER TYPE / ALTER DOMAIN ... RENAME TO and the texts that name the type.
// PostgreSQL's stored expressions are parse trees holding the type's OID,
// so they follow a rename; sqlgate keeps them as text (a column's DEFAULT
// and generated expression, a CHECK, a domain's CHECK and DEFAULT, a
// view's query, a function's signature and LANGUAGE sql body), so the
// rename rewrites the name in every one of them (sql.RenameTypeInText),
// in the same metadata commit for the metadata's texts, with the tables'
// texts recorded in that commit and written after it (followups.go: a
// crash between leaves the record, carried out at the next start), and
// refuses (0A000, naming the object) when a text cannot be rewritten,
// rather than leave an object that no longer binds.

// typeRename is the rename of the user-defined type schema.from to to.
type typeRename struct {
	schema, from, to string
	// unqualified: a bare from names this type (namedType's rule: the
	// default schema's, else the only one of that name).
	unqualified bool
	// function: the rename is ALTER FUNCTION's, of the function from;
	// its calls are rewritten (sql.RenameFunctionInText), and overloaded
	// (from has other overloads, which keep the name) refuses a text
	// that calls from, which could mean either.
	function, overloaded bool
	// toSchema is the schema the type moves to (ALTER TYPE / DOMAIN ...
	// SET SCHEMA), "" when it stays in schema.
	toSchema string
	// rewrite, when set, rewrites a text instead (a sequence's move,
	// sequencerename.go), and kind names the object in refuse.
	rewrite func(string) (string, bool)
	kind    string
}

// newTypeRename is the rename of schema.from to to, with the current
// types and domains deciding what a bare name means.
func (e *Engine) newTypeRename(schema, from, to string) typeRename {
	var ts map[uint32]meta.EnumType
	var ds map[uint32]meta.Domain
	if tm, ok := e.meta.(typesMeta); ok {
		ts = tm.Types().All()
	}
	if dm, ok := e.meta.(domainsMeta); ok {
		ds = dm.Domains().All()
	}
	r := typeRename{schema: schema, from: from, to: to, unqualified: schema == fluss.DefaultDatabase}
	if !r.unqualified {
		n, inDefault := 0, false
		count := func(s, name string) {
			if name == from {
				n++
				inDefault = inDefault || s == fluss.DefaultDatabase
			}
		}
		for _, t := range ts {
			count(t.Schema, t.Name)
		}
		for _, d := range ds {
			count(d.Schema, d.Name)
		}
		r.unqualified = n == 1 && !inDefault
	}
	return r
}

// refuse is the 0A000 for a text of what that cannot be rewritten.
func (r typeRename) refuse(what string) error {
	kind := "type"
	switch {
	case r.kind != "":
		kind = r.kind
	case r.function:
		kind = "function"
	}
	return sqlerr.New(sqlerr.FeatureNotSupported, "cannot rename %s \"%s\": %s names it, and sqlgate keeps that expression as text it cannot rewrite", kind, r.from, what).
		WithHint("Drop it, rename the %s, then create it again naming the new name.", kind)
}

// text rewrites one stored text; ok is false when it cannot be.
func (r typeRename) text(s string) (string, bool) {
	if s == "" || !strings.Contains(strings.ToLower(s), strings.ToLower(r.from)) {
		return s, true
	}
	if r.rewrite != nil {
		return r.rewrite(s)
	}
	if r.function {
		out, changed, ok := sql.RenameFunctionInText(s, r.schema, r.from, r.to)
		return out, ok && !(changed && r.overloaded)
	}
	out, _, ok := sql.MoveTypeInText(s, r.schema, r.from, r.newSchema(), r.to, r.unqualified)
	return out, ok
}

// sigName rewrites a function row's stored type name (signatureName's
// form) when it names the type.
func (r typeRename) sigName(s string) string {
	if r.function || r.rewrite != nil {
		return s
	}
	for _, array := range []bool{false, true} {
		if s == signatureName(r.schema, r.from, array) {
			return signatureName(r.newSchema(), r.to, array)
		}
	}
	return s
}

// newSchema is the type's schema after the rename.
func (r typeRename) newSchema() string {
	if r.toSchema != "" {
		return r.toSchema
	}
	return r.schema
}

// inMeta rewrites the metadata's texts in tx: functions (re-keyed by
// their new signatures), views and materialized views, domains' checks
// and defaults.
func (r typeRename) inMeta(tx *meta.Tx) error {
	fns := map[string]meta.Function{}
	for sig, m := range tx.Functions {
		old := sig
		m.Args = slices.Clone(m.Args)
		names := make([]string, 0, len(m.Args))
		for i, a := range m.Args {
			a.Type = r.sigName(a.Type)
			d, ok := r.text(a.Default)
			if !ok {
				return r.refuse(fmt.Sprintf("a parameter default of function %s", old))
			}
			a.Default = d
			m.Args[i] = a
			if a.Mode != "o" { // the key has the input parameters' types
				names = append(names, a.Type)
			}
		}
		if m.Returns != "" {
			m.Returns = r.sigName(m.Returns)
		}
		m.Table = slices.Clone(m.Table)
		for i := range m.Table {
			m.Table[i].Type = r.sigName(m.Table[i].Type)
		}
		// a body written as a string stays as written, as PostgreSQL's
		// prosrc (it no longer binds after the rename there too); a
		// RETURN or BEGIN ATOMIC body is a parse tree there (prosqlbody),
		// which follows
		if m.Language == "sql" && m.BodyKind != "" {
			b, ok := r.text(m.Body)
			if !ok {
				return r.refuse(fmt.Sprintf("the body of function %s", old))
			}
			m.Body = b
		}
		fns[m.Name+"("+strings.Join(names, ", ")+")"] = m
	}
	if !maps.EqualFunc(fns, tx.Functions, func(a, b meta.Function) bool { return functionEqual(a, b) }) {
		clear(tx.Functions)
		maps.Copy(tx.Functions, fns)
	}
	if tx.Views != nil {
		for _, v := range tx.Views.Snapshot().Views {
			def, ok1 := r.text(v.Definition)
			pretty, ok2 := r.text(v.Pretty)
			plain, ok3 := r.text(v.Plain)
			if !ok1 || !ok2 || !ok3 {
				return r.refuse(fmt.Sprintf("view \"%s\"", v.Path.Table))
			}
			if def == v.Definition && pretty == v.Pretty && plain == v.Plain {
				continue
			}
			v.Definition, v.Pretty, v.Plain = def, pretty, plain
			if err := tx.Views.Replace(v); err != nil {
				return err
			}
		}
	}
	for oid, d := range tx.Domains {
		def, ok := r.text(d.Default)
		if !ok {
			return r.refuse(fmt.Sprintf("the default of domain %s", d.Name))
		}
		checks := slices.Clone(d.Checks)
		for k, c := range checks {
			e, ok := r.text(c.Expr)
			if !ok {
				return r.refuse(fmt.Sprintf("constraint \"%s\" of domain %s", c.Name, d.Name))
			}
			checks[k].Expr = e
		}
		if def != d.Default || !slices.Equal(checks, d.Checks) {
			d.Default, d.Checks = def, checks
			tx.Domains[oid] = d
		}
	}
	return nil
}

// functionEqual compares two function rows.
func functionEqual(a, b meta.Function) bool {
	return a.Name == b.Name && a.Returns == b.Returns && a.Body == b.Body && slices.Equal(a.Args, b.Args) && slices.Equal(a.Table, b.Table)
}

// tableEdit is a table whose texts a rename rewrites: its descriptor
// before and after.
type tableEdit struct {
	info fluss.TableInfo
	desc fluss.TableDescriptor
}

// typeRenameTables plans the rewrite of every table's column defaults, generated
// expressions and CHECKs: nothing changes yet, and a text that cannot be
// rewritten refuses the rename before the metadata commit. A record an
// earlier rename left (followups.go) is carried out first, so that the
// plan reads the tables as it leaves them. The caller holds the DDL lock.
func (s *session) typeRenameTables(ctx context.Context, r typeRename) ([]tableEdit, error) {
	return s.planTableTexts(ctx, r.text, r.refuse)
}

// planTableTexts plans the rewrite of every table's texts by rewrite (a
// text it cannot rewrite is refused by refuse, naming the object).
func (s *session) planTableTexts(ctx context.Context, rewrite func(string) (string, bool), refuse func(what string) error) ([]tableEdit, error) {
	if err := s.carryFollowUps(ctx); err != nil {
		return nil, err
	}
	ts, err := s.userTables(ctx)
	if err != nil {
		return nil, err
	}
	var out []tableEdit
	for _, t := range ts {
		m := fluss.MetaOf(t.Descriptor)
		changed := false
		for i := range m.Columns {
			c := &m.Columns[i]
			col := t.Descriptor.Schema.Columns[i].Name
			d, ok := rewrite(c.Default)
			if !ok {
				return nil, refuse(fmt.Sprintf("the default of column %s of table %s", col, t.Path.Table))
			}
			g, ok := rewrite(c.Generated)
			if !ok {
				return nil, refuse(fmt.Sprintf("generated column %s of table %s", col, t.Path.Table))
			}
			if d != c.Default || g != c.Generated {
				c.Default, c.Generated, changed = d, g, true
			}
		}
		m.Checks = slices.Clone(m.Checks)
		for k, ch := range m.Checks {
			e, ok := rewrite(ch.Expr)
			if !ok {
				return nil, refuse(fmt.Sprintf("constraint %s of table %s", ch.Name, t.Path.Table))
			}
			if e != ch.Expr {
				m.Checks[k].Expr, changed = e, true
			}
		}
		if !changed {
			continue
		}
		desc := t.Descriptor
		desc.CustomProperties = maps.Clone(desc.CustomProperties)
		fluss.SetTableMeta(&desc, m)
		out = append(out, tableEdit{info: t, desc: desc})
	}
	return out, nil
}

// recordTableEdits records edits in tx, the metadata commit that renames
// (followups.go).
func recordTableEdits(tx *meta.Tx, edits []tableEdit) error {
	return followUps{Tables: tableFollowUps(edits)}.record(tx)
}

// followTableEdits writes the tables' texts the rename's commit recorded
// (recordTableEdits), after it, and clears the record.
func (s *session) followTableEdits(ctx context.Context, edits []tableEdit) error {
	if len(edits) == 0 {
		return nil
	}
	s.eng.step(stepFollowRecorded)
	return s.carryFollowUps(ctx)
}
