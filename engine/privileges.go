package engine

import (
	"context"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/udf"
	"github.com/sqlgate/sqlgate/views"
)

// Privileges.
//
// A superuser may do anything. Every other role needs, as in PostgreSQL:
// SELECT on each table a statement reads (including the target of an
// UPDATE or DELETE whose WHERE or SET reads its columns, and of INSERT ...
// ON CONFLICT DO UPDATE), INSERT / UPDATE / DELETE / TRUNCATE on the table
// it writes, UPDATE as well to lock rows (SELECT ... FOR UPDATE / SHARE),
// ownership to DROP a table or GRANT on it (or a grant option), USAGE on
// the schema of each table or view it names and CREATE on the schema it
// creates a table or view in (schemaprivs.go: PostgreSQL 15's public
// schema gives CREATE to its owner only, unless granted). pg_catalog and
// information_schema are readable by everyone. Privileges are checked when a statement runs,
// not when it is prepared, so a REVOKE takes effect on prepared statements.

// Roles says who can log in and who is a superuser.
type Roles interface {
	// Role reports whether name is a role and whether it is a superuser.
	Role(name string) (exists, superuser bool)
}

// AllSuperusers is the Roles of a server without authentication: whoever
// connects is a superuser (there is nobody to tell apart).
type AllSuperusers struct{}

// Role implements Roles.
func (AllSuperusers) Role(string) (bool, bool) { return true, true }

// tableRef is a stored table or a view a statement reads: id is its key
// in access.Store (a view's is views.ACLKeyOf(its id)); via is the view
// whose definition names it (nil when the statement itself does), whose
// owner's privileges it is read with.
type tableRef struct {
	id      int64
	path    fluss.TablePath
	view    bool
	matview bool // a materialized view (named so in errors)
	via     *tableRef
}

// recordingCatalog is the binder's catalog that remembers which stored
// tables and views a statement resolved.
type recordingCatalog struct {
	tables tables
	views  *views.Store
	meta   Metadata
	parse  func(string) ([]*sql.Statement, error)
	seen   []tableRef
	udfs   *udf.Registry
	files  *session // read_parquet and read_csv (filetables.go)
	// with is the data-modifying WITH queries prepared so far
	// (modifyingwith.go).
	with *modifyingWith
	// hidden is the relations the session's block dropped (session.hidden):
	// they do not exist for it.
	hidden map[fluss.TablePath]bool
}

// UDFs are the server's Go UDFs (binder.UDFCatalog).
func (c *recordingCatalog) UDFs() *udf.Registry { return c.udfs }

// GetSequence reads a sequence of a store that keeps them
// (binder.SequenceCatalog: LIKE ... INCLUDING IDENTITY).
func (c *recordingCatalog) GetSequence(ctx context.Context, p fluss.TablePath) (fluss.SequenceInfo, error) {
	q, ok := c.tables.store.(fluss.SequenceStore)
	if !ok {
		return fluss.SequenceInfo{}, sqlerr.NotSupported("sequences on this store")
	}
	return q.GetSequence(ctx, p)
}

func (c *recordingCatalog) GetTable(ctx context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	if err := systemTable(p); err != nil {
		return fluss.TableInfo{}, err
	}
	if c.hidden[p] {
		return fluss.TableInfo{}, sqlerr.UndefinedRelation(p.Table)
	}
	info, err := c.tables.store.GetTable(ctx, p)
	if err == nil {
		if c.meta != nil {
			c.meta.AdoptOwner(info)
		}
		c.seen = append(c.seen, tableRef{id: info.TableID, path: info.Path, via: viaOf(ctx)})
		return withTypes(c.Types(), info), nil // tables.go
	}
	if sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
		if v, ok := c.tables.virtualTable(ctx, p); ok { // a catalog relation
			return v.Info(), nil
		}
	}
	return info, err
}

func permissionDenied(p fluss.TablePath) error {
	return sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied for table %s", p.Table)
}

func (r tableRef) denied() error {
	if r.matview {
		return sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied for materialized view %s", r.path.Table)
	}
	if r.view {
		return sqlerr.New(sqlerr.InsufficientPrivilege, "permission denied for view %s", r.path.Table)
	}
	return permissionDenied(r.path)
}

// needVia checks a relation read through a view with the privileges of
// the view's owner, as PostgreSQL does (a view without a recorded owner
// belongs to the bootstrap superuser).
func (s *session) needVia(r tableRef) error {
	owner := s.eng.meta.Access().Owner(r.via.id)
	if owner == "" {
		return nil
	}
	if _, super := s.eng.roles.Role(owner); super || s.eng.meta.Access().Has(owner, r.id, access.Select) {
		return nil
	}
	return r.denied()
}

// needViaWrite is needVia for the base table a write through a view
// writes: its owner needs p there, and SELECT too unless p is INSERT.
func (s *session) needViaWrite(r tableRef, p access.Privilege) error {
	owner := s.eng.meta.Access().Owner(r.via.id)
	if owner == "" {
		return nil
	}
	if _, super := s.eng.roles.Role(owner); super {
		return nil
	}
	if p != access.Insert {
		p |= access.Select
	}
	if !s.eng.meta.Access().Has(owner, r.id, p) {
		return r.denied()
	}
	return nil
}

// writeThrough is the base table's id, the view and the privilege of a
// write to an automatically updatable view (binder/viewwrite.go); via is
// nil for any other statement.
func writeThrough(bound binder.Statement) (base int64, via *binder.View, p access.Privilege) {
	if e, ok := bound.(*binder.Explain); ok {
		bound = e.Statement
	}
	switch b := bound.(type) {
	case *binder.Insert:
		p = access.Insert
		if b.OnConflictUpdate != nil {
			p |= access.Update
		}
		return b.Table.TableID, b.Via, p
	case *binder.Update:
		return b.Table.TableID, b.Via, access.Update
	case *binder.Delete:
		return b.Table.TableID, b.Via, access.Delete
	}
	return 0, nil, 0
}

// need checks that the session's role holds p on a table.
func (s *session) need(id int64, path fluss.TablePath, p access.Privilege) error {
	if s.superuser || s.eng.meta.Access().Has(s.info.User, id, p) {
		return nil
	}
	return permissionDenied(path)
}

// authorize checks a bound statement's privileges before it runs.
func (s *session) authorize(ps *statement) error {
	base, via, baseWrite := writeThrough(ps.bound)
	var baseErr error // the view owner's, checked after the role's on the view
	for _, r := range ps.reads {
		if r.via == nil {
			continue
		}
		if via != nil && r.id == base && !r.view {
			// the base table of a write through a view: the view's
			// owner needs the write's privilege on it (and SELECT, which
			// any write but a plain INSERT reads it with)
			baseErr = s.needViaWrite(r, baseWrite)
			continue
		}
		if err := s.needVia(r); err != nil {
			return err
		}
	}
	if s.superuser {
		return baseErr
	}
	var target int64
	var write access.Privilege
	readsTarget := false
	bound, stmt := ps.bound, ps.parsed.AST
	if e, ok := bound.(*binder.Explain); ok {
		// EXPLAIN of a write needs the write's privileges, as PostgreSQL's
		// executor checks them even when it only explains
		bound = e.Statement
		if x, ok := stmt.(*ast.ExplainStmt); ok {
			stmt = x.Stmt
		}
	}
	switch b := bound.(type) {
	case *binder.Insert:
		target, write = b.Table.TableID, access.Insert
		if b.OnConflictUpdate != nil {
			write |= access.Update
			readsTarget = true
		}
	case *binder.Update:
		target, write = b.Table.TableID, access.Update
		readsTarget = updateReadsColumns(stmt)
	case *binder.Delete:
		target, write = b.Table.TableID, access.Delete
		if del, ok := stmt.(*ast.DeleteStmt); ok && del.Where != nil {
			readsTarget = true
		}
	case *binder.Merge:
		// each action's privilege, and SELECT where a condition or a SET
		// value reads the target's columns
		target, readsTarget = b.Table.TableID, b.ReadsTarget
		if len(b.Inserts) > 0 {
			write |= access.Insert
		}
		if len(b.Updates) > 0 {
			write |= access.Update
		}
		if b.Delete != nil {
			write |= access.Delete
		}
	case *binder.CreateTable:
		if err := s.needSchemaCreate(b.Path.Database); err != nil { // schemaprivs.go
			return err
		}
	case *binder.CreateView:
		if err := s.needSchemaCreate(b.Path.Database); err != nil {
			return err
		}
		// the relations it reads are read with its owner's privileges
		// when it is used; naming them needs their schemas' USAGE
		for _, r := range ps.reads {
			if err := s.needSchemaUsage(r.path.Database); err != nil {
				return err
			}
		}
		return nil
	case *binder.DropTable, *binder.DropView:
		return nil // checked per relation when it runs (it may not exist)
	case *binder.Describe:
		return nil // as psql's \d: the catalog is public
	}
	viewTarget := via != nil
	if viewTarget {
		target = views.ACLKeyOf(via.ID) // the role needs the write on the view
	}
	if ps.parsed.Returning != nil || ps.parsed.DMLFrom != nil {
		// RETURNING reads the rows written; UPDATE ... FROM and DELETE ...
		// USING join the target (their WHERE sits in DMLFrom).
		readsTarget = true
	}
	for _, r := range ps.reads {
		if r.via != nil {
			continue // checked above, as the view's owner
		}
		if err := s.needSchemaUsage(r.path.Database); err != nil { // schemaprivs.go
			return err
		}
		if via != nil && r.id == base && !r.view {
			// the base table of a write through a security_invoker view
			// (read as the role, binder's asOwner): the role needs the
			// write's privilege on it, as the owner would otherwise
			p := baseWrite
			if p != access.Insert {
				p |= access.Select
			}
			if !s.eng.meta.Access().Has(s.info.User, r.id, p) {
				return r.denied()
			}
			continue
		}
		if r.id == target && write != 0 && (!r.view || viewTarget) {
			if err := s.need(r.id, r.path, write); err != nil {
				return r.denied() // "for view v" through a view
			}
			if !readsTarget {
				continue
			}
		}
		if !s.eng.meta.Access().Has(s.info.User, r.id, access.Select) {
			return r.denied()
		}
	}
	return baseErr
}

// publicName shows the default Fluss database as PostgreSQL's schema.
func publicName(db string) string {
	if db == fluss.DefaultDatabase {
		return "public"
	}
	return db
}

// updateReadsColumns reports whether an UPDATE reads its table's columns
// (in WHERE or on the right of SET), which needs SELECT in PostgreSQL.
func updateReadsColumns(n ast.StmtNode) bool {
	up, ok := n.(*ast.UpdateStmt)
	if !ok {
		return true
	}
	if up.Where != nil {
		return true
	}
	for _, a := range up.List {
		v := &columnFinder{}
		a.Expr.Accept(v)
		if v.found {
			return true
		}
	}
	return false
}

type columnFinder struct{ found bool }

func (v *columnFinder) Enter(n ast.Node) (ast.Node, bool) {
	if _, ok := n.(*ast.ColumnNameExpr); ok {
		v.found = true
		return n, true
	}
	return n, false
}

func (v *columnFinder) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// mayDrop checks that the session may drop (or otherwise own-change) a table.
func (s *session) mayDrop(info fluss.TableInfo) error {
	s.eng.meta.AdoptOwner(info)
	if s.superuser || (s.eng.meta.Access().Owner(info.TableID) == s.info.User && s.info.User != "") {
		return nil
	}
	return mustOwn("table", info.Path.Table)
}

// execGrant runs GRANT / REVOKE.
func (s *session) execGrant(ctx context.Context, g *sql.GrantStmt) (pgwire.Result, error) {
	verb := "GRANT"
	if g.Revoke {
		verb = "REVOKE"
	}
	if g.Default != nil {
		verb = "ALTER DEFAULT PRIVILEGES"
	}
	if err := s.blockDDL(verb, nil); err != nil {
		return nil, err
	}
	switch {
	case g.Default != nil:
		return s.execDefaultPrivileges(ctx, g) // schemaprivs.go
	case len(g.Schemas) > 0:
		return s.execSchemaGrant(ctx, g) // schemaprivs.go
	}
	privs := access.All
	if g.Privileges != nil {
		privs = 0
		for _, n := range g.Privileges {
			p, ok := access.ParsePrivilege(n)
			if !ok {
				return nil, invalidPrivilege(n, "table")
			}
			privs |= p
		}
	}
	grantees, err := s.resolveGrantees(g.Grantees) // schemaprivs.go
	if err != nil {
		return nil, err
	}
	var infos []tableRef
	for _, t := range g.Tables {
		db := t[0]
		if db == "" || db == "public" {
			db = fluss.DefaultDatabase
		}
		p := fluss.TablePath{Database: db, Table: t[1]}
		if err := systemTable(p); err != nil {
			return nil, err
		}
		info, err := s.eng.storeTable(ctx, p)
		if err != nil {
			if v, ok := s.eng.meta.Views().Get(p); ok {
				infos = append(infos, tableRef{id: v.ACLKey(), path: v.Path, view: true})
				continue
			}
			return nil, s.relationAsWritten(ctx, err, sql.ObjectName{Schema: t[0], Name: t[1]})
		}
		s.eng.meta.AdoptOwner(info)
		infos = append(infos, tableRef{id: info.TableID, path: info.Path})
	}
	for _, schema := range g.AllInSchemas {
		db := schema
		if db == "public" {
			db = fluss.DefaultDatabase
		}
		if db == fluss.SystemDatabase {
			return nil, sqlerr.UndefinedSchema(schema)
		}
		all, err := s.eng.store.ListTables(ctx, db)
		if err != nil {
			return nil, err
		}
		vs := s.eng.meta.Views().List(db)
		if len(all) == 0 && len(vs) == 0 && schema != "public" {
			return nil, sqlerr.UndefinedSchema(schema)
		}
		for _, info := range all {
			s.eng.meta.AdoptOwner(info)
			infos = append(infos, tableRef{id: info.TableID, path: info.Path})
		}
		for _, v := range vs { // ALL TABLES includes views in PostgreSQL
			infos = append(infos, tableRef{id: v.ACLKey(), path: v.Path, view: true})
		}
	}
	for _, info := range infos {
		if !s.superuser && !s.eng.meta.Access().CanGrant(s.info.User, info.id, privs) {
			return nil, info.denied()
		}
	}
	// One commit for the whole statement: every table's grants or none.
	err = s.eng.meta.Update(ctx, func(tx *meta.Tx) error {
		for _, info := range infos {
			for _, r := range grantees {
				var err error
				if g.Revoke {
					err = tx.Access.Revoke(info.id, info.path.String(), r, privs, g.GrantOptionFor)
				} else {
					err = tx.Access.Grant(info.id, info.path.String(), r, privs, g.WithGrantOption)
				}
				if err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, metaErr(err)
	}
	return tagOnly(verb), nil
}
