package engine

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The schema-management statements of sql/ddlstmts.go: schemas (schemas.go),
// SHOW DATABASES / CREATE TABLE / PARTITIONS, COMMENT ON, CREATE / DROP
// INDEX, ANALYZE, VACUUM, SQL-level PREPARE / EXECUTE (sqlprepare.go),
// ALTER TABLE (altertable.go), and what tools send that sqlgate has
// nothing to do for (toolStatement: CLUSTER, REINDEX, extensions, ALTER
// DEFAULT PRIVILEGES, DROP / REFRESH MATERIALIZED VIEW).

// prepareDDL prepares one of them: nothing is bound ahead (they name
// tables that may not exist yet in a multi-statement string); only the
// result columns are known.
func (s *session) prepareDDL(ctx context.Context, ps *statement) (*statement, error) {
	str := func(name string) []pgwire.ResultColumn {
		return []pgwire.ResultColumn{{Name: name, Type: types.StringType}}
	}
	switch ps.parsed.Kind {
	case sql.ShowDatabases:
		ps.cols = str("database_name")
	case sql.ShowCreateTable:
		ps.cols = str("create_statement")
	case sql.ShowPartitions:
		ps.cols = str("partition_name")
	case sql.Execute:
		return s.prepareExecute(ctx, ps)
	case sql.FetchCursor:
		return s.prepareFetch(ps), nil // cursors.go
	case sql.DeclareCursor:
		return s.prepareDeclare(ctx, ps) // cursorparams.go
	case sql.Subscribe:
		return s.prepareSubscribe(ctx, ps) // subscribe.go
	}
	return ps, nil
}

// sessionCtx gives ctx the session's settings and user, which name
// resolution (search_path) reads.
func (s *session) sessionCtx(ctx context.Context) context.Context {
	return functions.WithSession(ctx, functions.Session{User: s.info.User, SchemaUsable: s.usableFn, Database: s.info.Database,
		BackendPID: int32(s.info.ProcessID), Setting: s.statusFn, Style: &s.parsedStyle, Location: s.location()})
}

// resolvePath is the path of a relation named by a DDL statement: its
// schema, or the first on the search path that holds the name.
func (s *session) resolvePath(ctx context.Context, n sql.ObjectName) (fluss.TablePath, error) {
	path := fluss.TablePath{Database: n.Schema, Table: n.Name}
	if path.Database == "" {
		cat := &recordingCatalog{tables: s.eng.tables, views: s.eng.meta.Views(), meta: s.eng.meta, hidden: s.hidden}
		db, err := cat.ResolveSchema(s.sessionCtx(ctx), n.Name, false)
		if err != nil {
			return path, err
		}
		path.Database = db
	}
	return path, nil
}

// resolveTable finds a table named by a DDL statement over the search path.
func (s *session) resolveTable(ctx context.Context, n sql.ObjectName) (fluss.TableInfo, error) {
	path, err := s.resolvePath(ctx, n)
	if err != nil {
		return fluss.TableInfo{}, err
	}
	if s.droppedInBlock(path) { // tablestmts.go dropInBlock
		return fluss.TableInfo{}, s.relationAsWritten(ctx, sqlerr.UndefinedRelation(path.Table), n)
	}
	info, err := s.eng.storeTable(ctx, path)
	if err != nil && sqlerr.CodeOf(err) == sqlerr.UndefinedTable {
		if _, isView := s.eng.meta.Views().Get(path); isView {
			return info, notA("table", path.Table)
		}
	}
	return info, s.relationAsWritten(ctx, err, n)
}

// relationsAsWritten names a relation that err reports missing as d wrote
// it (schema-qualified or not), whichever of its relations it is: the
// lookups under execDDL name it by its resolved path's table alone.
func (s *session) relationsAsWritten(ctx context.Context, err error, d *sql.DDLStmt) error {
	if err == nil {
		return nil
	}
	for _, n := range append([]sql.ObjectName{d.Table}, d.Tables...) {
		err = s.relationAsWritten(ctx, err, n)
	}
	return err
}

// relationAsWritten is sqlerr.RelationAsWritten over the store's schemas.
func (s *session) relationAsWritten(ctx context.Context, err error, n sql.ObjectName) error {
	return sqlerr.RelationAsWritten(err, n.Schema, n.Name, func(schema string) bool {
		exists, serr := s.eng.tables.SchemaExists(ctx, schema)
		return exists || serr != nil
	})
}

// dropMissing is DROP's error for a kind ("table", "view", "sequence") of
// relation p that does not exist, named alone as PostgreSQL's
// DropErrorMsgNonExistent names it, or 3F000 when p's schema (which only a
// qualified name can name) does not exist.
func (s *session) dropMissing(ctx context.Context, p fluss.TablePath, kind string) error {
	if exists, err := s.eng.tables.SchemaExists(ctx, p.Database); err == nil && !exists {
		return sqlerr.UndefinedSchema(p.Database)
	}
	return sqlerr.New(sqlerr.UndefinedTable, "%s \"%s\" does not exist", kind, p.Table)
}

// execDDL runs one of them.
func (s *session) execDDL(ctx context.Context, ps *statement, params []any) (pgwire.Result, error) {
	st := ps.parsed
	if s.txStatus == 'E' {
		return nil, sqlerr.TransactionAborted()
	}
	d := st.DDL
	switch st.Kind {
	case sql.DeclareCursor, sql.FetchCursor, sql.CloseCursor:
		return s.execCursor(ctx, ps, params) // cursors.go
	case sql.CreateSchema, sql.DropSchema, sql.ShowDatabases:
		return s.schemaStatement(ctx, st)
	case sql.ShowCreateTable:
		info, err := s.resolveTable(ctx, d.Table)
		if err != nil {
			return nil, err
		}
		return stringsResult(s.eng, "create_statement", []string{showCreateTable(info)}), nil
	case sql.CreatePartition:
		return s.createPartitionOf(ctx, d.PartitionOf) // pgpartitions.go
	case sql.ShowPartitions:
		info, err := s.resolveTable(ctx, d.Table)
		if err != nil {
			return nil, err
		}
		return s.showPartitions(ctx, info) // partitions.go
	case sql.CommentOn:
		return s.commentOn(ctx, d)
	case sql.CreateIndex:
		if d.Concurrently {
			if err := s.noTxnBlock("CREATE INDEX CONCURRENTLY"); err != nil {
				return nil, err
			}
		}
		if res, done, err := s.matviewIndex(ctx, d); done { // matview.go
			return res, err
		}
		if path, err := s.resolvePath(ctx, d.Table); err == nil {
			if err, ok := s.createIndexOnRelation(ctx, path); ok { // ddlindex.go
				return nil, err
			}
		}
		info, err := s.resolveTable(ctx, d.Table)
		if err != nil {
			return nil, err
		}
		if err := s.checkIndex(ctx, info, d); err != nil {
			return nil, err
		}
		if d.Unique {
			res, err := s.carryRows(ctx, info, func() (pgwire.Result, error) { // uniquecarry.go: the block's rows of the table
				return s.createUniqueIndex(ctx, d) // uniqueddl.go
			})
			if err == nil {
				s.undoTableChange(ctx, info) // txundo.go: a ROLLBACK drops the index
			}
			return res, err
		}
		if err := s.mayDrop(info); err != nil { // an index is made by its table's owner
			return nil, err
		}
		return s.createPlainIndex(ctx, info, d) // ddlindex.go
	case sql.DropIndex:
		if res, done, err := s.dropMatviewIndexes(ctx, d); done { // matview.go
			return res, err
		}
		return s.dropTableIndexes(ctx, d) // ddlindex.go
	case sql.AlterIndex:
		return s.alterIndex(ctx, d) // alterindex.go
	case sql.Truncate:
		return s.truncateTables(ctx, d) // ddl.go
	case sql.Maintenance:
		if res, done, err := s.toolStatement(ctx, d); done {
			return res, err
		}
		if d.Verb == "VACUUM" {
			if err := s.noTxnBlock("VACUUM"); err != nil {
				return nil, err
			}
		}
		for _, n := range d.Tables {
			if _, err := s.resolveTable(ctx, n); err != nil {
				return nil, err
			}
		}
		return tagOnly(d.Verb), nil
	case sql.Prepare:
		return s.sqlPrepare(ctx, d.Prepare, ps.source)
	case sql.Execute:
		return s.sqlExecute(ctx, ps, params)
	case sql.AlterTable:
		if hasIdentityAction(d.Actions) {
			return s.alterIdentity(ctx, d) // identity.go
		}
		if d.View || len(d.Actions) == 1 && d.Actions[0].Kind == sql.AlterRename {
			return s.renameRelation(ctx, d) // rename.go
		}
		if len(d.Actions) == 1 && d.Actions[0].Kind == sql.AlterRenameConstraint {
			return s.renameConstraint(ctx, d) // alterindex.go
		}
		if v, a, ok := s.viewOptionsByAlterTable(ctx, d); ok {
			return s.alterViewOptions(ctx, v, a, "ALTER TABLE") // views.go
		}
		if slices.ContainsFunc(d.Actions, func(a sql.AlterAction) bool { return a.Kind == sql.AlterAttachPartition }) {
			return s.attachPartition(ctx, d) // pgpartitions.go
		}
		if slices.ContainsFunc(d.Actions, func(a sql.AlterAction) bool { return a.Kind == sql.AlterDetachPartition }) {
			return s.detachPartition(ctx, d) // pgpartdefault.go
		}
		if v, ok, err := s.partitionNamed(ctx, d.Table); err == nil && ok && s.parentKeyAgain(ctx, v, d.Actions) {
			return tagOnly("ALTER TABLE"), nil // pgpartitions.go: it has its parent's key
		}
		if err := s.alterPartitionRefused(ctx, d); err != nil { // pgpartitions.go
			return nil, err
		}
		before, _ := s.resolveTable(ctx, d.Table)
		res, err := s.alterTableCarrying(ctx, d) // uniquecarry.go
		if err == nil {
			err = s.refreshPartitions(ctx, d.Table) // pgpartitions.go
		}
		if err == nil {
			s.undoAlterTable(ctx, before, d.Actions) // txundo.go
		}
		return res, err
	}
	return nil, sqlerr.New(sqlerr.InternalError, "cannot execute %v", st.Kind)
}

// checkIndex is binder.CheckIndex over the session's catalog: CREATE
// INDEX's errors before anything is built (or, for the secondary index
// sqlgate does not keep, before its notice).
func (s *session) checkIndex(ctx context.Context, info fluss.TableInfo, d *sql.DDLStmt) error {
	cat := &recordingCatalog{tables: s.eng.tables, udfs: s.udfs(), meta: s.eng.meta, parse: s.parseView, files: s, hidden: s.hidden}
	cat.views = s.eng.meta.Views()
	method := strings.ToLower(d.IndexMethod)
	if method == "" {
		method = "btree"
	}
	params := func() error { _, err := indexParams(method, d.IndexOptions); return err } // ddlindex.go
	return binder.CheckIndexWith(s.planContext(ctx), cat, info, d, params)
}

// noticeResult is a statement's tag with notices sent before it.
type noticeTagResult struct {
	tagResult
	notices []*sqlerr.Error
}

func (r *noticeTagResult) Notices() []*sqlerr.Error { return r.notices }

func noticeResult(tag string, notices ...*sqlerr.Error) pgwire.Result {
	for _, n := range notices {
		n.Severity = "NOTICE"
		if n.Code == sqlerr.SuccessfulCompletion {
			n.Code = "00000"
		}
	}
	return &noticeTagResult{tagResult: tagResult{tag: tag}, notices: notices}
}

// commentOn sets a table's or column's comment, which the store keeps in
// the table's descriptor (Fluss's table and column comments).
// Other objects' comments are the metadata store's (comments.go).
func (s *session) commentOn(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	if err := s.blockDDL("COMMENT", nil); err != nil {
		return nil, err
	}
	if d.CommentObject != "TABLE" && d.CommentObject != "COLUMN" {
		done := s.undoMetaObjects(ctx) // txundo.go: the comment as it was
		if err := s.commentOnObject(ctx, d); err != nil {
			return nil, err
		}
		done()
		return tagOnly("COMMENT"), nil
	}
	info, err := s.resolveTable(ctx, d.Table)
	if err != nil {
		return nil, err
	}
	text := ""
	if d.Comment != nil {
		text = *d.Comment
	}
	ch := fluss.TableChange{Kind: fluss.ChangeTableComment, Comment: text}
	if d.Column != "" {
		if info.ColumnIndex(d.Column) < 0 {
			return nil, sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" of relation \"%s\" does not exist", d.Column, info.Path.Table)
		}
		ch = fluss.TableChange{Kind: fluss.ChangeColumnComment, Column: fluss.Column{Name: d.Column}, Comment: text}
	}
	if _, err := s.applyTableChanges(ctx, info, []fluss.TableChange{ch}); err != nil {
		return nil, err
	}
	s.undoTableChange(ctx, info) // txundo.go: the comment as it was
	return tagOnly("COMMENT"), nil
}

// applyTableChanges runs changes on the store under the DDL lock, bumping
// the catalog count so that prepared statements bind again.
func (s *session) applyTableChanges(ctx context.Context, info fluss.TableInfo, changes []fluss.TableChange) (fluss.TableInfo, error) {
	alt, ok := s.eng.store.(fluss.TableAlterer)
	if !ok {
		return info, sqlerr.NotSupported("ALTER TABLE on this store")
	}
	if err := s.mayDrop(info); err != nil { // the owner alone alters, as in PostgreSQL
		return info, err
	}
	s.eng.ddl.Lock()
	s.eng.catalog.Add(1)
	defer s.eng.ddl.Unlock()
	return alt.AlterTable(ctx, info.Path, changes)
}

// showCreateTable renders a table's CREATE TABLE in PostgreSQL's form,
// with Fluss's types and its WITH properties (bucket.num, bucket.key and
// the table's others), and its comments as COMMENT ON statements: what
// run again creates the same table.
func showCreateTable(info fluss.TableInfo) string {
	var b strings.Builder
	d := info.Descriptor
	fmt.Fprintf(&b, "CREATE TABLE %s.%s (\n", nameSQL(info.Path.Database), nameSQL(info.Path.Table))
	for i, c := range d.Schema.Columns {
		if i > 0 {
			b.WriteString(",\n")
		}
		typ := c.Type.Nullable().String()
		if c.Type.Kind == types.String && c.Type.Length > 0 { // VARCHAR(n): Fluss's STRING with sqlgate's limit
			typ = fmt.Sprintf("varchar(%d)", c.Type.Length)
		}
		fmt.Fprintf(&b, "    %s %s", nameSQL(c.Name), typ)
		if c.Type.NotNull {
			b.WriteString(" NOT NULL")
		}
		b.WriteString(generatedClause(info, i)) // generated.go
	}
	if len(d.Schema.PrimaryKey) > 0 {
		keys := make([]string, len(d.Schema.PrimaryKey))
		for i, k := range d.Schema.PrimaryKey {
			keys[i] = nameSQL(k)
		}
		fmt.Fprintf(&b, ",\n    PRIMARY KEY (%s)", strings.Join(keys, ", "))
	}
	b.WriteString("\n)")
	b.WriteString(partitionedByClause(info)) // partitions.go
	props := [][2]string{{"bucket.num", fmt.Sprint(max(d.BucketCount, 1))}}
	if len(d.BucketKey) > 0 {
		props = append(props, [2]string{"bucket.key", strings.Join(d.BucketKey, ",")})
	}
	keys := make([]string, 0, len(d.Properties))
	for k := range d.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		props = append(props, [2]string{k, d.Properties[k]})
	}
	b.WriteString(" WITH (")
	for i, p := range props {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s = %s", quoteLiteral(p[0]), quoteLiteral(p[1]))
	}
	b.WriteString(");")
	name := nameSQL(info.Path.Database) + "." + nameSQL(info.Path.Table)
	if d.Comment != "" {
		fmt.Fprintf(&b, "\nCOMMENT ON TABLE %s IS %s;", name, quoteLiteral(d.Comment))
	}
	for _, c := range d.Schema.Columns {
		if c.Comment != "" {
			fmt.Fprintf(&b, "\nCOMMENT ON COLUMN %s.%s IS %s;", name, nameSQL(c.Name), quoteLiteral(c.Comment))
		}
	}
	return b.String()
}

// nameSQL writes a name as PostgreSQL's quote_ident does: quoted unless
// it is a lower-case word that is no reserved keyword.
func nameSQL(s string) string {
	plain := s != ""
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r == '_' || i > 0 && (r >= '0' && r <= '9' || r == '$')) {
			plain = false
			break
		}
	}
	if plain {
		for _, k := range sql.Keywords() {
			if k.Word == s && k.Category != 'U' {
				plain = false
				break
			}
		}
	}
	if plain {
		return s
	}
	return quoteIdent(s)
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// toolStatement runs the statements tools and test cleaners send that
// sqlgate has nothing to do for (sql/ddlstmts.go), answering as PostgreSQL
// 15 does: done is false for ANALYZE and VACUUM, which execDDL runs.
func (s *session) toolStatement(ctx context.Context, d *sql.DDLStmt) (res pgwire.Result, done bool, err error) {
	switch d.Verb {
	case "CREATE EXTENSION":
		res, err = createExtension(d)
	case "DROP EXTENSION":
		res, err = dropExtension(d)
	case "DROP TRIGGER", "DROP POLICY", "DROP RULE":
		res, err = s.dropOnRelation(ctx, d) // droproutines.go
	case "CLUSTER":
		res, err = s.cluster(ctx, d)
	case "REINDEX":
		res, err = s.reindex(ctx, d)
	case "CREATE MATERIALIZED VIEW", "DROP MATERIALIZED VIEW", "REFRESH MATERIALIZED VIEW", "ALTER MATERIALIZED VIEW":
		res, err = s.matviewStatement(ctx, d) // matview.go
	case "ALTER INDEX ATTACH PARTITION":
		// a partition's index is its parent's (pgpartitions.go: a
		// partition is its parent's Fluss partition): nothing to attach,
		// once the parent index is found
		// (the names as they are: regclass's input here reads no
		// quoted identifier)
		name := d.Table.Name
		if d.Table.Schema != "" {
			name = d.Table.Schema + "." + name
		}
		var ps *statement
		if ps, err = s.prepareInternal(ctx, "SELECT "+quoteLiteral(name)+"::regclass"); err == nil {
			var r pgwire.Result
			if r, err = ps.execute(ctx, nil); err == nil {
				if r, err = drainResult(ctx, r); err == nil { // modifyingwith.go
					r.Close()
				}
			}
		}
		if err == nil {
			res = tagOnly("ALTER INDEX")
		}
	default:
		return nil, false, nil
	}
	return res, true, err
}

// builtinExtension is the one extension sqlgate has, as PostgreSQL has
// it installed in every database.
const builtinExtension = "plpgsql"

// createExtension is CREATE EXTENSION: plpgsql exists already (42710, a
// NOTICE with IF NOT EXISTS), any other is not available (0A000), as
// PostgreSQL says of one whose files are not installed.
func createExtension(d *sql.DDLStmt) (pgwire.Result, error) {
	name := d.Names[0]
	if name == builtinExtension {
		if !d.IfNotExists {
			return nil, sqlerr.New(sqlerr.DuplicateObject, "extension \"%s\" already exists", name)
		}
		return noticeResult("CREATE EXTENSION", sqlerr.New(sqlerr.DuplicateObject, "extension \"%s\" already exists, skipping", name)), nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "extension \"%s\" is not available", name).
		WithDetail("sqlgate has no extensions besides plpgsql.").
		WithHint("The functions sqlgate has are listed in pg_proc.")
}

// dropExtension is DROP EXTENSION: plpgsql cannot go (sqlgate's catalog
// is built in); any other does not exist (42704, a NOTICE with IF EXISTS).
func dropExtension(d *sql.DDLStmt) (pgwire.Result, error) {
	var notices []*sqlerr.Error
	for _, name := range d.Names {
		if name == builtinExtension {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "DROP EXTENSION %s is not supported: it is part of sqlgate's built-in catalog", name)
		}
		if !d.IfExists {
			return nil, sqlerr.New(sqlerr.UndefinedObject, "extension \"%s\" does not exist", name)
		}
		notices = append(notices, sqlerr.New(sqlerr.SuccessfulCompletion, "extension \"%s\" does not exist, skipping", name))
	}
	return noticeResult("DROP EXTENSION", notices...), nil
}

// cluster is CLUSTER: a Fluss primary-key table is kept in key order
// already, and a log table in arrival order, so there is nothing to do.
// As in PostgreSQL, CLUSTER of every table runs outside a transaction
// block, and a table named without USING needs an index it was clustered
// on before (sqlgate's tables never were: 42704).
func (s *session) cluster(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	if len(d.Tables) == 0 {
		if err := s.noTxnBlock("CLUSTER"); err != nil {
			return nil, err
		}
		return tagOnly("CLUSTER"), nil
	}
	info, err := s.resolveTable(ctx, d.Tables[0])
	if err != nil {
		return nil, err
	}
	if d.Index == "" {
		return nil, sqlerr.New(sqlerr.UndefinedObject, "there is no previously clustered index for table \"%s\"", info.Path.Table)
	}
	if !info.HasPrimaryKey() || d.Index != info.PrimaryKeyName() {
		return nil, sqlerr.New(sqlerr.UndefinedObject, "index \"%s\" for table \"%s\" does not exist", d.Index, info.Path.Table)
	}
	return tagOnly("CLUSTER"), nil
}

// reindex is REINDEX: Fluss tables have no indexes beyond their primary
// key, which the store maintains, so there is nothing to rebuild. A table
// must exist; SCHEMA, DATABASE, SYSTEM and CONCURRENTLY refuse a
// transaction block, as PostgreSQL's do.
func (s *session) reindex(ctx context.Context, d *sql.DDLStmt) (pgwire.Result, error) {
	switch {
	case d.Concurrently:
		if err := s.noTxnBlock("REINDEX CONCURRENTLY"); err != nil {
			return nil, err
		}
	case d.Scope == "SCHEMA" || d.Scope == "DATABASE" || d.Scope == "SYSTEM":
		if err := s.noTxnBlock("REINDEX " + d.Scope); err != nil {
			return nil, err
		}
	}
	switch d.Scope {
	case "INDEX":
		if _, _, found, err := s.findIndex(ctx, d.Tables[0]); err != nil || !found { // alterindex.go
			if path, err := s.resolvePath(ctx, d.Tables[0]); err == nil && s.relationAtPath(ctx, path) {
				return nil, sqlerr.New(sqlerr.WrongObjectType, "\"%s\" is not an index", d.Tables[0].Name)
			}
			return nil, sqlerr.New(sqlerr.UndefinedTable, "relation \"%s\" does not exist", d.Tables[0].Name)
		}
	case "TABLE":
		if _, err := s.resolveTable(ctx, d.Tables[0]); err != nil {
			return nil, err
		}
	case "DATABASE", "SYSTEM":
		if d.Tables[0].Name != s.info.Database {
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "can only reindex the currently open database")
		}
	case "SCHEMA":
		names, err := s.eng.store.ListDatabases(ctx)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(names, d.Tables[0].Name) {
			return nil, sqlerr.New(sqlerr.InvalidSchemaName, "schema \"%s\" does not exist", d.Tables[0].Name)
		}
	}
	return tagOnly("REINDEX"), nil
}
