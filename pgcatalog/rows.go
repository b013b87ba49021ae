package pgcatalog

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgproc"
	"github.com/sqlgate/sqlgate/meta"
	"github.com/sqlgate/sqlgate/pgtypes"
	"github.com/sqlgate/sqlgate/types"
)

// dynamic is a generator computed at each read.
func (c *Catalog) dynamic(rows func() []row) rowsFunc {
	return func(context.Context, *snapshot) ([]row, error) { return rows(), nil }
}

// generators maps relation names to their row generators; relations not
// listed are always empty (sqlgate has no triggers, policies ...).
func (c *Catalog) generators() map[string]rowsFunc {
	static := func(rows []row) rowsFunc {
		return func(context.Context, *snapshot) ([]row, error) { return rows, nil }
	}
	return map[string]rowsFunc{
		"pg_namespace":           c.allNamespaceRows,
		"pg_class":               c.classRows,
		"pg_attribute":           c.attributeRows,
		"pg_type":                c.typeRows,
		"pg_enum":                c.enumRows,          // enums.go
		"pg_range":               static(rangeRows()), // ranges.go
		"pg_index":               c.indexRows,
		"pg_indexes":             c.indexesViewRows,
		"pg_constraint":          c.constraintRows,
		"pg_attrdef":             c.attrdefRows,             // coldefs.go
		"pg_sequence":            c.pgSequenceRows,          // coldefs.go
		"pg_depend":              c.dependRows,              // udfprocs.go, coldefs.go (views.go appends the views' rows)
		"pg_init_privs":          c.dynamic(c.initPrivRows), // schemaacl.go
		"pg_sequences":           c.pgSequencesViewRows,
		"pg_description":         c.descriptionRows,
		"pg_shdescription":       c.shdescriptionRows,
		"pg_default_acl":         c.defaultACLRows,                                     // schemaacl.go                                  // comments.go
		"pg_database":            c.allDatabaseRows,                                    // databases.go
		"pg_roles":               c.dynamic(func() []row { return c.roleRows("rol") }), // CREATE ROLE changes them
		"pg_authid":              c.dynamic(func() []row { return c.roleRows("rol") }),
		"pg_user":                c.dynamic(c.userRows),
		"pg_settings":            static(c.settingRows()),
		"pg_am":                  static(amRows()),
		"pg_proc":                c.dynamic(c.procRows),   // CREATE FUNCTION changes them
		"pg_aggregate":           static(aggregateRows()), // pgprocrows.go
		"pg_operator":            static(operatorRows()),  // operators.go
		"pg_cast":                static(castRows()),      // casts.go
		"pg_opfamily":            static(opFamilyRows()),  // opclasses.go
		"pg_opclass":             static(opClassRows()),
		"pg_amop":                static(amOpRows()),
		"pg_amproc":              static(amProcRows()),
		"pg_tables":              c.tablesViewRows,
		"pg_stat_user_tables":    c.statTableRows, // stattables.go
		"pg_stat_all_tables":     c.statTableRows,
		"pg_stat_user_indexes":   c.statUserIndexRows,
		"pg_stat_all_indexes":    c.statUserIndexRows,
		"pg_statio_user_tables":  c.statioTableRows,
		"pg_statio_all_tables":   c.statioTableRows,
		"pg_stat_gssapi":         statGSSAPIRows,
		"pg_stat_database":       c.statDatabaseRows,
		"pg_stat_ssl":            statSSLRows,
		"pg_prepared_statements": preparedStatementRows, // prepared.go
		"pg_cursors":             cursorRows,            // cursors.go
		"pg_locks":               c.lockRows,
		"pg_stat_activity":       c.activityRows,     // activity.go
		"pg_stat_progress_copy":  c.progressCopyRows, // activity.go
		"pg_extension":           static(extensionRows()),
		"pg_collation":           static(collationRows()), // collations.go
		"pg_ts_dict":             static(tsDictRows()),
		"pg_ts_parser":           static(tsParserRows()),    // collations.go
		"pg_ts_template":         static(tsTemplateRows()),  // collations.go
		"pg_ts_config":           static(tsConfigRows()),    // collations.go
		"pg_ts_config_map":       static(tsConfigMapRows()), // collations.go
		"pg_language":            static(languageRows()),
		"pg_tablespace":          static(tablespaceRows()),
		"pg_partitioned_table":   c.partitionedTableRows, // partitions.go

		"pg_available_extensions":         static(availableExtensionRows()),        // sysviews.go
		"pg_available_extension_versions": static(availableExtensionVersionRows()), // sysviews.go
		// information_schema
		"schemata":                c.allSchemataRows,
		"tables":                  c.infoTablesRows,
		"columns":                 c.infoColumnsRows,
		"table_constraints":       c.infoTableConstraintRows,
		"key_column_usage":        c.infoKeyColumnRows,
		"referential_constraints": c.infoReferentialRows,      // fkeys.go
		"constraint_column_usage": c.infoConstraintColumnRows, // fkeys.go
		"routines":                static(c.infoRoutineRows()),
		"sequences":               c.infoSequenceRows,                    // coldefs.go
		"domains":                 c.dynamic(c.infoDomainRows),           // domains.go
		"domain_constraints":      c.dynamic(c.infoDomainConstraintRows), // domains.go
		"check_constraints":       c.infoCheckConstraintRows,             // exprs.go
	}
}

func (c *Catalog) namespaceRows() []row {
	return []row{
		{"oid": nsPgCatalog, "nspname": pgCatalog, "nspowner": ownerOID, "nspacl": c.schemaACL(c.opts.User)},
		{"oid": nsPublic, "nspname": fluss.DefaultDatabase, "nspowner": dbOwnerRoleOID, "nspacl": c.publicSchemaACL()}, // schemaacl.go
		{"oid": nsInfoSchema, "nspname": infoSchema, "nspowner": ownerOID, "nspacl": c.schemaACL(c.opts.User)},
		{"oid": nsToast, "nspname": "pg_toast", "nspowner": ownerOID},
	}
}

// classBase is a pg_class row with PostgreSQL's values for an ordinary
// relation; callers override what differs.
func classBase(oid uint32, name string, ns uint32, kind string, natts int) row {
	return row{
		"oid": oid, "relname": name, "relnamespace": ns, "reltype": 0, "reloftype": 0,
		"relowner": ownerOID, "relam": 0, "relfilenode": oid, "reltablespace": 0,
		"relpages": 0, "reltuples": -1.0, "relallvisible": 0, "reltoastrelid": 0,
		"relhasindex": false, "relisshared": false, "relpersistence": "p", "relkind": kind,
		"relnatts": natts, "relchecks": 0, "relhasrules": false, "relhastriggers": false,
		"relhassubclass": false, "relrowsecurity": false, "relforcerowsecurity": false,
		"relispopulated": true, "relreplident": "n", "relispartition": false, "relrewrite": 0,
		"relfrozenxid": 0, "relminmxid": 0,
	}
}

func (c *Catalog) classRows(_ context.Context, s *snapshot) ([]row, error) {
	withFKeys := fkeyTables(s.tables) // fkeys.go
	var rows []row
	for _, t := range s.tables {
		r := classBase(RelationOID(t.TableID), t.Path.Table, namespaceOID(t.Path.Database), relkindOf(t), len(t.Descriptor.Schema.Columns)) // partitions.go
		r["reltype"] = rowTypeOID(t.TableID)
		r["relam"] = amHeap
		if t.IsPartitioned() {
			r["relam"] = 0 // a partitioned table has no storage of its own (partitions.go)
		}
		r["relreplident"] = replIdent(t) // pgstorage.go
		if opts := relOptions(t); opts != nil {
			r["reloptions"] = opts
		}
		// PostgreSQL's FirstMultiXactId, what every new table starts with
		r["relminmxid"] = 1
		// any index: its primary key's, or a UNIQUE constraint's or index's
		// (psql's \d lists a table's indexes only when it is set)
		r["relhasindex"] = t.HasPrimaryKey() || len(fluss.MetaOf(t.Descriptor).Uniques) > 0 || len(c.plainIndexes(t)) > 0
		r["relchecks"] = len(fluss.MetaOf(t.Descriptor).Checks)
		r["relhastriggers"] = withFKeys[t.Path]
		r["relowner"] = c.roleOID(c.storedTableOwner(t))
		if c.opts.Roles != nil {
			if acl := c.opts.Roles.TableACL(t.TableID); acl != nil {
				items := make([]any, len(acl))
				for i, a := range acl {
					items[i] = a
				}
				r["relacl"] = items
			}
		}
		rows = append(rows, r)
		if t.HasPrimaryKey() {
			ir := classBase(pkIndexOID(t.TableID), pkName(t), namespaceOID(t.Path.Database), "i", len(t.Descriptor.Schema.PrimaryKey))
			ir["relam"] = amBtree
			ir["relowner"] = r["relowner"]
			ir["reltuples"] = 0.0
			ir["relpages"] = 1 // an empty btree index is its metapage, as in PostgreSQL
			rows = append(rows, ir)
		}
		rows = append(rows, c.uniqueClassRows(t, r["relowner"])...) // unique.go
		rows = append(rows, c.plainClassRows(t, r["relowner"])...)  // indexes.go
	}
	rows = append(rows, c.sequenceClassRows(s)...)
	rows = append(rows, c.compositeClassRows()...) // composites.go
	for i := range relationSpecs {
		sp := &relationSpecs[i]
		r := classBase(sp.oid, sp.name, namespaceOID(sp.schema), string(sp.kind), len(sp.cols))
		if sp.kind == 'r' {
			r["relam"] = amHeap
			r["relminmxid"] = 1
		}
		switch {
		case sp.kind == 'v':
			r["relfilenode"] = 0 // a view has no storage
		case sharedCatalogs[sp.name]:
			// kept once for the cluster, in pg_global, through the
			// relation map (pg_class.relfilenode 0) as PostgreSQL keeps it
			r["relisshared"], r["reltablespace"], r["relfilenode"] = true, tablespaceGlobal, 0
		case mappedCatalogs[sp.name]:
			r["relfilenode"] = 0 // found through the relation map
		}
		rows = append(rows, r)
	}
	markTemporary(rows, s.schemas)
	return rows, nil
}

// markTemporary gives the relations in a temporary schema (pg_temp_N: a
// session's temporary tables, their indexes and sequences) relpersistence
// 't', as PostgreSQL's RELPERSISTENCE_TEMP.
func markTemporary(rows []row, schemas []string) {
	temp := map[uint32]bool{}
	for _, db := range schemas {
		if strings.HasPrefix(db, "pg_temp_") {
			temp[namespaceOID(db)] = true
		}
	}
	if len(temp) == 0 {
		return
	}
	for _, r := range rows {
		if ns, ok := r["relnamespace"].(uint32); ok && temp[ns] {
			r["relpersistence"] = "t"
		}
	}
}

// sharedCatalogs are PostgreSQL 15's shared catalogs (relisshared) among
// those sqlgate lists, and mappedCatalogs its other mapped ones: their
// pg_class rows show relfilenode 0, pg_relation_filenode their OID.
var (
	sharedCatalogs = map[string]bool{"pg_auth_members": true, "pg_authid": true, "pg_database": true, "pg_db_role_setting": true,
		"pg_parameter_acl": true, "pg_replication_origin": true, "pg_shdepend": true, "pg_shdescription": true, "pg_shseclabel": true,
		"pg_subscription": true, "pg_tablespace": true}
	mappedCatalogs = map[string]bool{"pg_attribute": true, "pg_class": true, "pg_proc": true, "pg_type": true}
)

func (c *Catalog) attributeRow(rel uint32, num int, name string, t types.T) row {
	ct := c.colType(t)
	return row{
		"attrelid": rel, "attname": name, "atttypid": ct.oid, "attstattarget": -1, "attlen": ct.len,
		"attnum": num, "attndims": ct.ndims, "attcacheoff": -1, "atttypmod": int(ct.typmod),
		"attbyval": ct.byVal, "attalign": ct.align, "attstorage": ct.storage, "attcompression": "",
		"attnotnull": t.NotNull, "atthasdef": false, "atthasmissing": false, "attidentity": "",
		"attgenerated": "", "attisdropped": false, "attislocal": true, "attinhcount": 0,
		"attcollation": ct.collation,
	}
}

// systemAttributes are the system columns PostgreSQL lists in pg_attribute
// (attnum -1 to -6) for every table: tools that read pg_attribute without
// "attnum > 0" (DBeaver's column cache) show them as hidden columns.
var systemAttributes = []struct {
	name   string
	typ    uint32
	len    int
	byVal  bool
	align  string
	attnum int
}{
	{"ctid", 27, 6, false, "s", -1},
	{"xmin", 28, 4, true, "i", -2},
	{"cmin", 29, 4, true, "i", -3},
	{"xmax", 28, 4, true, "i", -4},
	{"cmax", 29, 4, true, "i", -5},
	{"tableoid", 26, 4, true, "i", -6},
}

// systemAttributeRows are rel's system columns, with PostgreSQL 15's values.
func systemAttributeRows(rel uint32) []row {
	rows := make([]row, 0, len(systemAttributes))
	for _, a := range systemAttributes {
		rows = append(rows, row{
			"attrelid": rel, "attname": a.name, "atttypid": a.typ, "attstattarget": 0, "attlen": a.len,
			"attnum": a.attnum, "attndims": 0, "attcacheoff": -1, "atttypmod": -1,
			"attbyval": a.byVal, "attalign": a.align, "attstorage": "p", "attcompression": "",
			"attnotnull": true, "atthasdef": false, "atthasmissing": false, "attidentity": "",
			"attgenerated": "", "attisdropped": false, "attislocal": true, "attinhcount": 0,
			"attcollation": 0,
		})
	}
	return rows
}

func (c *Catalog) attributeRows(ctx context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		rel := RelationOID(t.TableID)
		cols := t.Descriptor.Schema.Columns
		rows = append(rows, systemAttributeRows(rel)...)
		meta := fluss.MetaOf(t.Descriptor)
		for i, col := range cols {
			m := meta.Column(i)
			rows = append(rows, withStorageMeta(c.withMissing(c.withDomainAttribute(withColumnMeta(c.attributeRow(rel, i+1, col.Name, shownType(col.Type, m)), m), m), m), m)) // domains.go, missing.go, pgstorage.go
		}
		if t.HasPrimaryKey() {
			for k, num := range pkAttnums(t) {
				col := cols[num-1]
				r := c.attributeRow(pkIndexOID(t.TableID), k+1, col.Name, col.Type)
				r["attnotnull"] = false
				rows = append(rows, r)
			}
		}
		rows = append(rows, c.uniqueAttributeRows(t)...)     // unique.go
		rows = append(rows, c.plainAttributeRows(ctx, t)...) // indexes.go
	}
	for i := range relationSpecs {
		sp := &relationSpecs[i]
		if sp.kind == 'r' {
			rows = append(rows, systemAttributeRows(sp.oid)...)
		}
		for k, col := range sp.cols {
			r := c.attributeRow(sp.oid, k+1, col.name, col.t)
			r["attnotnull"] = sp.kind == 'r' && (k == 0 && col.name == "oid")
			rows = append(rows, r)
		}
	}
	rows = append(rows, c.compositeAttributeRows()...) // composites.go
	return rows, nil
}

func (c *Catalog) typeRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for i := range pgTypes {
		t := &pgTypes[i]
		rows = append(rows, typeRow(t.oid, t.name, nsPgCatalog, t.len, t.byVal, t.typtype, t.category, t.preferred,
			t.elem, t.array, 0, t.align, t.storage, t.collation))
	}
	for _, t := range s.tables {
		rows = append(rows, typeRow(rowTypeOID(t.TableID), t.Path.Table, namespaceOID(t.Path.Database), -1, false, "c", "C", false,
			0, types.TableRowArrayOID(t.TableID), RelationOID(t.TableID), "d", "x", 0))
		rows = append(rows, compositeArrayRow(types.TableRowArrayOID(t.TableID), t.Path.Table, namespaceOID(t.Path.Database), rowTypeOID(t.TableID))) // composites.go
	}
	rows = append(rows, c.enumTypeRows()...)      // enums.go
	rows = append(rows, c.domainTypeRows()...)    // domains.go
	rows = append(rows, c.compositeTypeRows()...) // composites.go
	return rows, nil
}

func typeRow(oid uint32, name string, ns uint32, length int, byVal bool, typtype, category string, preferred bool,
	elem, arr, rel uint32, align, storage string, collation uint32) row {
	r := row{
		"oid": oid, "typname": name, "typnamespace": ns, "typowner": ownerOID, "typlen": length,
		"typbyval": byVal, "typtype": typtype, "typcategory": category, "typispreferred": preferred,
		"typisdefined": true, "typdelim": ",", "typrelid": rel, "typelem": elem,
		"typarray": arr, "typalign": align, "typstorage": storage,
		"typnotnull": false, "typbasetype": 0, "typtypmod": -1, "typndims": 0, "typcollation": collation,
	}
	procs, ok := typeProcs[oid]
	if rel != 0 {
		procs, ok = typeProcs[oidRecord], true // a table's row type reads and prints as a record
	}
	if !ok {
		procs = [8]uint32{}
	}
	for i, col := range []string{"typinput", "typoutput", "typreceive", "typsend", "typmodin", "typmodout", "typanalyze", "typsubscript"} {
		r[col] = procs[i]
	}
	return r
}

func (c *Catalog) indexRows(ctx context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		first := len(rows)
		rows = append(rows, c.uniqueIndexRows(t)...)     // unique.go
		rows = append(rows, c.plainIndexRows(ctx, t)...) // indexes.go
		if !t.HasPrimaryKey() {
			c.markIndexes(t, rows[first:]) // pgstorage.go
			continue
		}
		nums := pkAttnums(t)
		colls := make([]any, len(nums))
		classes := make([]any, len(nums))
		opts := make([]any, len(nums))
		for i, n := range nums {
			ct := c.colType(t.Descriptor.Schema.Columns[n-1].Type)
			colls[i] = ct.collation
			classes[i] = c.btreeClass(t.Descriptor.Schema.Columns[n-1].Type) // opclasses.go
			opts[i] = 0
		}
		rows = append(rows, row{
			"indexrelid": pkIndexOID(t.TableID), "indrelid": RelationOID(t.TableID), "indnatts": len(nums),
			"indnkeyatts": len(nums), "indisunique": true, "indnullsnotdistinct": false, "indisprimary": true,
			"indisexclusion": false, "indimmediate": true, "indisclustered": false, "indisvalid": true,
			"indcheckxmin": false, "indisready": true, "indislive": true, "indisreplident": false,
			"indkey": int2s(nums), "indcollation": colls, "indclass": classes, "indoption": opts,
		})
		c.markIndexes(t, rows[first:]) // pgstorage.go
	}
	return rows, nil
}

func (c *Catalog) indexesViewRows(ctx context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		if t.HasPrimaryKey() {
			rows = append(rows, row{"schemaname": t.Path.Database, "tablename": t.Path.Table,
				"indexname": pkName(t), "indexdef": indexDef(t, 0, false)})
		}
		rows = append(rows, uniqueIndexesViewRows(t)...)       // unique.go
		rows = append(rows, c.plainIndexesViewRows(ctx, t)...) // indexes.go
	}
	return rows, nil
}

func (c *Catalog) constraintRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		rows = append(rows, uniqueConstraintRows(t)...) // unique.go
		if !t.HasPrimaryKey() {
			continue
		}
		rows = append(rows, row{
			"oid": pkConstraintOID(t.TableID), "conname": pkName(t), "connamespace": namespaceOID(t.Path.Database), "contype": "p",
			"condeferrable": false, "condeferred": false, "convalidated": true, "conrelid": RelationOID(t.TableID),
			"contypid": 0, "conindid": pkIndexOID(t.TableID), "conparentid": 0, "confrelid": 0,
			"confupdtype": " ", "confdeltype": " ", "confmatchtype": " ", "conislocal": true, "coninhcount": 0,
			"connoinherit": true, "conkey": int2s(pkAttnums(t)),
		})
	}
	rows = append(rows, c.domainConstraintRows()...) // domains.go
	rows = append(rows, fkeyRows(s)...)              // fkeys.go
	return append(rows, c.checkConstraintRows(s)...), nil
}

// schemaACL is PostgreSQL's default ACL of a schema owned by owner:
// USAGE and CREATE for the owner, USAGE for everyone.
func (c *Catalog) schemaACL(owner string) []any {
	return []any{owner + "=UC/" + owner, "=U/" + owner}
}

// builtinDescriptions are the comments PostgreSQL 15 ships on the schemas,
// the extension, the languages and the access methods sqlgate shows, by catalog and OID.
var builtinDescriptions = []struct {
	classoid uint32
	objoid   uint32
	text     string
}{
	{classPgNamespace, nsPgCatalog, "system catalog schema"},
	{classPgNamespace, nsPublic, "standard public schema"},
	{classPgNamespace, nsToast, "reserved schema for TOAST tables"},
	{classPgExtension, plpgsqlOID, "PL/pgSQL procedural language"},
	{classPgLanguage, langInternal, "built-in functions"},
	{classPgLanguage, langC, "dynamically-loaded C functions"},
	{classPgLanguage, langSQL, "SQL-language functions"},
	{classPgLanguage, langPlpgsql, "PL/pgSQL procedural language"},
	{classPgAm, amHeap, "heap table access method"},
	{classPgAm, amBtree, "b-tree index access method"},
	{classPgAm, 405, "hash index access method"},
	{classPgAm, 783, "GiST index access method"},
	{classPgAm, 2742, "GIN index access method"},
	{classPgAm, 4000, "SP-GiST index access method"},
	{classPgAm, 3580, "block range index (BRIN) access method"},
}

func (c *Catalog) descriptionRows(ctx context.Context, s *snapshot) ([]row, error) {
	var rows []row
	comments := c.comments()
	for _, d := range builtinDescriptions {
		if d.objoid == nsPublic {
			if _, set := comments[meta.CommentKey(meta.CommentSchema, fluss.DefaultDatabase)]; set {
				continue // COMMENT ON SCHEMA public replaced it ("" removed it)
			}
		}
		rows = append(rows, row{"objoid": d.objoid, "classoid": d.classoid, "objsubid": 0, "description": d.text})
	}
	rows = append(rows, c.objectCommentRows(ctx, s)...) // comments.go
	rows = append(rows, operatorDescriptionRows()...)   // operators.go
	rows = append(rows, collationDescriptionRows()...)  // collations.go
	for _, ts := range pgTypes {
		// the built-in types' comments (typecomments.go), \dTS's Description
		if text, ok := typeComments[ts.oid]; ok {
			rows = append(rows, row{"objoid": ts.oid, "classoid": classPgType, "objsubid": 0, "description": text})
		}
	}
	for _, t := range s.tables {
		rel := RelationOID(t.TableID)
		rows = append(rows, row{"objoid": rel, "classoid": classPgClass, "objsubid": 0, "description": tableComment(t)})
		for i, col := range t.Descriptor.Schema.Columns {
			if col.Comment != "" {
				rows = append(rows, row{"objoid": rel, "classoid": classPgClass, "objsubid": i + 1, "description": col.Comment})
			}
		}
	}
	return rows, nil
}

func (c *Catalog) databaseRows() []row {
	return []row{{
		"oid": c.databaseOIDOf(""), "datname": c.opts.Database, "datdba": ownerOID, "encoding": encodingUTF8,
		"datlocprovider": "c", "datistemplate": false, "datallowconn": true, "datconnlimit": -1,
		"datfrozenxid": 0, "datminmxid": 1, "dattablespace": tablespaceDef,
		"datcollate": "C.UTF-8", "datctype": "C.UTF-8",
	}}
}

func (c *Catalog) roleRows(prefix string) []row {
	var rows []row
	for _, r := range c.roles() {
		rows = append(rows, row{
			"oid": c.roleOID(r.Name), "rolname": r.Name, "rolsuper": r.Superuser, "rolinherit": true,
			"rolcreaterole": r.Superuser, "rolcreatedb": r.Superuser, "rolcanlogin": !r.NoLogin, "rolreplication": r.Superuser,
			"rolconnlimit": -1, "rolpassword": "********", "rolbypassrls": r.Superuser,
		})
	}
	for _, p := range predefinedRoles {
		rows = append(rows, row{"oid": p.oid, "rolname": p.name, "rolsuper": false, "rolinherit": true,
			"rolcreaterole": false, "rolcreatedb": false, "rolcanlogin": false, "rolreplication": false,
			"rolconnlimit": -1, "rolpassword": "********", "rolbypassrls": false})
	}
	return rows
}

// predefinedRoles are PostgreSQL 15's predefined roles, with its OIDs:
// pg_roles and pg_authid list them after the server's roles. Some are
// named by what sqlgate shows (pg_database_owner owns public), and
// pg_dump resolves every owner OID it reads through pg_roles.
var predefinedRoles = []struct {
	oid  uint32
	name string
}{
	{3373, "pg_monitor"}, {3374, "pg_read_all_settings"}, {3375, "pg_read_all_stats"}, {3377, "pg_stat_scan_tables"},
	{4200, "pg_signal_backend"}, {4544, "pg_checkpoint"}, {4569, "pg_read_server_files"}, {4570, "pg_write_server_files"},
	{4571, "pg_execute_server_program"}, {dbOwnerRoleOID, "pg_database_owner"}, {6181, "pg_read_all_data"},
	{6182, "pg_write_all_data"},
}

func (c *Catalog) userRows() []row {
	var rows []row
	for _, r := range c.roles() {
		if r.NoLogin {
			continue // pg_user lists the roles that can log in
		}
		rows = append(rows, row{
			"usename": r.Name, "usesysid": c.roleOID(r.Name), "usecreatedb": r.Superuser, "usesuper": r.Superuser,
			"userepl": r.Superuser, "usebypassrls": r.Superuser, "passwd": "********",
		})
	}
	return rows
}

// settingRows is a fixed list: the server's defaults, not the session's
// current values (SET in a session does not show here).
func (c *Catalog) settingRows() []row {
	num := c.serverVersionNum()
	type st struct{ name, setting, vartype, category, context string }
	list := []st{
		{"application_name", "", "string", "Reporting and Logging / What to Log", "user"},
		{"block_size", "8192", "integer", "Preset Options", "internal"},
		{"client_encoding", "UTF8", "string", "Client Connection Defaults / Locale and Formatting", "user"},
		{"DateStyle", "ISO, MDY", "string", "Client Connection Defaults / Locale and Formatting", "user"},
		{"default_transaction_isolation", "read committed", "enum", "Client Connection Defaults / Statement Behavior", "user"},
		{"default_transaction_read_only", "off", "bool", "Client Connection Defaults / Statement Behavior", "user"},
		{"extra_float_digits", "1", "integer", "Client Connection Defaults / Locale and Formatting", "user"},
		{"in_hot_standby", "off", "bool", "Preset Options", "internal"},
		{"integer_datetimes", "on", "bool", "Preset Options", "internal"},
		{"IntervalStyle", "postgres", "enum", "Client Connection Defaults / Locale and Formatting", "user"},
		{"is_superuser", "on", "bool", "Preset Options", "internal"},
		{"lc_collate", "C.UTF-8", "string", "Preset Options", "internal"},
		{"lc_ctype", "C.UTF-8", "string", "Preset Options", "internal"},
		{"max_connections", "100", "integer", "Connections and Authentication / Connection Settings", "postmaster"},
		{"max_identifier_length", "63", "integer", "Preset Options", "internal"},
		{"max_index_keys", "32", "integer", "Preset Options", "internal"},
		{"search_path", `"$user", public`, "string", "Client Connection Defaults / Statement Behavior", "user"},
		{"server_encoding", "UTF8", "string", "Preset Options", "internal"},
		{"server_version", c.opts.ServerVersion, "string", "Preset Options", "internal"},
		{"server_version_num", strconv.Itoa(num), "integer", "Preset Options", "internal"},
		{"standard_conforming_strings", "on", "bool", "Version and Platform Compatibility / Previous PostgreSQL Versions", "user"},
		{"TimeZone", "UTC", "string", "Client Connection Defaults / Locale and Formatting", "user"},
		{"transaction_isolation", "read committed", "string", "Client Connection Defaults / Statement Behavior", "user"},
		{"transaction_read_only", "off", "bool", "Client Connection Defaults / Statement Behavior", "user"},
	}
	for _, e := range extraSettings { // settingdescs.go
		list = append(list, st{e[0], e[1], e[2], e[3], e[4]})
	}
	slices.SortFunc(list, func(a, b st) int { return strings.Compare(strings.ToLower(a.name), strings.ToLower(b.name)) })
	rows := make([]row, len(list))
	for i, s := range list {
		rows[i] = row{"name": s.name, "setting": s.setting, "category": s.category, "context": s.context,
			"vartype": s.vartype, "source": "default", "boot_val": s.setting, "reset_val": s.setting,
			"pending_restart": false, "short_desc": ""}
		describeSetting(rows[i])
	}
	return rows
}

// serverVersionNum turns "15.8" into 150008.
func (c *Catalog) serverVersionNum() int {
	parts := strings.SplitN(c.opts.ServerVersion, ".", 3)
	major, _ := strconv.Atoi(parts[0])
	minor := 0
	if len(parts) > 1 {
		minor, _ = strconv.Atoi(parts[1])
	}
	return major*10000 + minor
}

func amRows() []row {
	// PostgreSQL 15's access methods; sqlgate's tables are "heap" and its
	// primary keys "btree", the others are listed because clients list them
	return []row{
		{"oid": amHeap, "amname": "heap", "amhandler": 3, "amtype": "t"},
		{"oid": amBtree, "amname": "btree", "amhandler": 330, "amtype": "i"},
		{"oid": 405, "amname": "hash", "amhandler": 331, "amtype": "i"},
		{"oid": 783, "amname": "gist", "amhandler": 332, "amtype": "i"},
		{"oid": 2742, "amname": "gin", "amhandler": 333, "amtype": "i"},
		{"oid": 4000, "amname": "spgist", "amhandler": 334, "amtype": "i"},
		{"oid": 3580, "amname": "brin", "amhandler": 335, "amtype": "i"},
	}
}

// procInfo is one overload of a library function, as pg_proc shows it.
type procInfo struct {
	oid     uint32
	name    string
	args    []any
	ret     uint32
	nargs   int
	varArgs bool

	// set-returning functions only: proretset, prorows, the namespace
	// when not pg_catalog, and the OUT columns of a function returning
	// record (proallargtypes / proargmodes / proargnames list the IN
	// arguments, then these)
	retset   bool
	rows     float64
	ns       uint32
	outTypes []uint32
	outNames []string

	// Go UDFs only (udfprocs.go): the language, not strict and volatile
	// (userFunc), proparallel, a RETURNS TABLE function (table: its
	// columns are outTypes/outNames, mode 't'), and how a batch UDF's
	// relation argument (the first) is shown
	lang     uint32
	userFunc bool
	table    bool
	parallel string
	relArg   string
	src      string   // prosrc, when not the name
	argNames []string // proargnames of a function without OUT columns
	owner    string   // proowner's role ("": the bootstrap superuser)
	comment  string   // COMMENT ON FUNCTION's text (comments.go)
	// LANGUAGE sql functions only (sql set): provolatile, proisstrict,
	// the arguments' defaults as written ("" none), and a SQL-standard
	// body (RETURN expr or BEGIN ATOMIC ... END) as written
	sql         bool
	volatile    byte
	strict      bool
	argDefaults []string
	// inTypes are a LANGUAGE sql function's input parameters' types, to
	// which the defaults are converted (pg_get_function_arguments)
	inTypes []types.T
	sqlBody string
	// pg is PostgreSQL's own row of a built-in (pgprocrows.go), nil for
	// sqlgate's own overloads and user functions
	pg *pgproc.Row
	// params are all of a LANGUAGE sql function's parameters in their
	// order when some are OUT or INOUT (nil otherwise): proallargtypes,
	// proargmodes and proargnames list them (udfprocs.go)
	params []udfParam
}

// Pseudo-types of pg_proc's polymorphic signatures.
const (
	oidAny        = 2276
	oidAnyArray   = 2277
	oidAnyElement = 2283
	oidRecord     = 2249
)

// setFuncProcs are the set-returning functions sqlgate has (functions'
// ResolveSetFunc), with PostgreSQL 15's signatures and row estimates for
// the overloads it implements.
var setFuncProcs = []procInfo{
	{name: "_pg_expandarray", ns: nsInfoSchema, args: []any{uint32(oidAnyArray)}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{oidAnyElement, 23}, outNames: []string{"x", "n"}},
	{name: "generate_series", args: []any{uint32(23), uint32(23)}, ret: 23, rows: 1000},
	{name: "generate_series", args: []any{uint32(23), uint32(23), uint32(23)}, ret: 23, rows: 1000},
	{name: "generate_series", args: []any{uint32(20), uint32(20)}, ret: 20, rows: 1000},
	{name: "generate_series", args: []any{uint32(20), uint32(20), uint32(20)}, ret: 20, rows: 1000},
	{name: "generate_subscripts", args: []any{uint32(oidAnyArray), uint32(23)}, ret: 23, rows: 1000},
	{name: "generate_subscripts", args: []any{uint32(oidAnyArray), uint32(23), uint32(16)}, ret: 23, rows: 1000},
	{name: "pg_get_keywords", args: []any{}, ret: oidRecord, rows: 500,
		outTypes: []uint32{25, 18, 16, 25, 25}, outNames: []string{"word", "catcode", "barelabel", "catdesc", "baredesc"}},
	{name: "pg_options_to_table", args: []any{uint32(1009)}, ret: oidRecord, rows: 3,
		outTypes: []uint32{25, 25}, outNames: []string{"option_name", "option_value"}},
	{name: "pg_partition_ancestors", args: []any{uint32(2205)}, ret: 2205, rows: 10},
	{name: "pg_partition_tree", args: []any{uint32(2205)}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{2205, 2205, 16, 23}, outNames: []string{"relid", "parentrelid", "isleaf", "level"}},
	{name: "pg_tablespace_databases", args: []any{uint32(26)}, ret: 26, rows: 1000},
	{name: "pg_timezone_abbrevs", args: []any{}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{25, 1186, 16}, outNames: []string{"abbrev", "utc_offset", "is_dst"}},
	{name: "pg_timezone_names", args: []any{}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{25, 25, 1186, 16}, outNames: []string{"name", "abbrev", "utc_offset", "is_dst"}},
	// pg_settings' columns (the binder reads that relation for it)
	{name: "pg_show_all_settings", args: []any{}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 25, 1009, 25, 25, 25, 23, 16},
		outNames: []string{"name", "setting", "unit", "category", "short_desc", "extra_desc", "context", "vartype", "source",
			"min_val", "max_val", "enumvals", "boot_val", "reset_val", "sourcefile", "sourceline", "pending_restart"}},
	{name: "unnest", args: []any{uint32(oidAnyArray)}, ret: oidAnyElement, rows: 100},
	// the JSON record family the binder binds itself (binder/jsonpopulate.go)
	{name: "json_populate_recordset", args: []any{uint32(oidAnyElement), uint32(114), uint32(16)}, ret: oidAnyElement, rows: 100},
	{name: "jsonb_populate_recordset", args: []any{uint32(oidAnyElement), uint32(3802)}, ret: oidAnyElement, rows: 100},
	{name: "json_to_recordset", args: []any{uint32(114)}, ret: oidRecord, rows: 100},
	{name: "jsonb_to_recordset", args: []any{uint32(3802)}, ret: oidRecord, rows: 100},
	// full text search (functions/tsearchsrf.go): ts_debug's dictionaries
	// are regdictionary[] and regdictionary here, text in sqlgate's rows
	{name: "ts_debug", args: []any{uint32(3734), uint32(25)}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{25, 25, 25, 3770, 3769, 1009}, outNames: []string{"alias", "description", "token", "dictionaries", "dictionary", "lexemes"}},
	{name: "ts_debug", args: []any{uint32(25)}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{25, 25, 25, 3770, 3769, 1009}, outNames: []string{"alias", "description", "token", "dictionaries", "dictionary", "lexemes"}},
	{name: "ts_parse", args: []any{uint32(25), uint32(25)}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{23, 25}, outNames: []string{"tokid", "token"}},
	{name: "ts_parse", args: []any{uint32(26), uint32(25)}, ret: oidRecord, rows: 1000,
		outTypes: []uint32{23, 25}, outNames: []string{"tokid", "token"}},
	// functions/tsstat.go
	{name: "ts_stat", args: []any{uint32(25)}, ret: oidRecord, rows: 10000,
		outTypes: []uint32{25, 23, 23}, outNames: []string{"word", "ndoc", "nentry"}},
	{name: "ts_stat", args: []any{uint32(25), uint32(25)}, ret: oidRecord, rows: 10000,
		outTypes: []uint32{25, 23, 23}, outNames: []string{"word", "ndoc", "nentry"}},
	{name: "ts_token_type", args: []any{uint32(25)}, ret: oidRecord, rows: 16,
		outTypes: []uint32{23, 25, 25}, outNames: []string{"tokid", "alias", "description"}},
	{name: "ts_token_type", args: []any{uint32(26)}, ret: oidRecord, rows: 16,
		outTypes: []uint32{23, 25, 25}, outNames: []string{"tokid", "alias", "description"}},
}

// recordFuncProcs are the functions returning one row of a type their
// caller gives (the first argument's, or a column definition list's),
// which the binder binds itself (binder/jsonpopulate.go).
var recordFuncProcs = []procInfo{
	{name: "json_populate_record", args: []any{uint32(oidAnyElement), uint32(114), uint32(16)}, ret: oidAnyElement},
	{name: "jsonb_populate_record", args: []any{uint32(oidAnyElement), uint32(3802)}, ret: oidAnyElement},
	{name: "json_to_record", args: []any{uint32(114)}, ret: oidRecord},
	{name: "jsonb_to_record", args: []any{uint32(3802)}, ret: oidRecord},
}

// functionProcs lists PostgreSQL's rows of the built-ins sqlgate resolves
// (pgprocrows.go), then the library's overloads PostgreSQL has no row of,
// under OIDs from procOIDBase on that follow the sorted order of names, so
// they are stable for a given build; then the set-returning, record and
// the types' I/O functions not listed yet.
func functionProcs() []procInfo {
	var out []procInfo
	listed := map[string]bool{}
	oids := map[uint32]bool{}
	for _, r := range pgproc.Rows() {
		p := pgRowProc(&r)
		out = append(out, p)
		listed[procKey(p)], oids[p.oid] = true, true
		// a call leaving out defaulted arguments is the same row
		// (make_interval(years int4 DEFAULT 0, ...)), which the library
		// may declare as overloads of fewer arguments
		for n := len(r.Args) - r.Defaults; n < len(r.Args); n++ {
			listed[pgproc.Signature(r.Name, r.Args[:n])] = true
		}
	}
	next := uint32(procOIDBase)
	sigs := pgSignatures()
	for _, name := range functions.Names() {
		if strings.HasPrefix(name, "__") {
			continue
		}
		seen := map[string]bool{}
		for _, f := range functions.Lookup(name) {
			args := make([]any, len(f.Args))
			for i, a := range f.Args {
				oid, _, _ := pgtypes.OIDOf(a)
				if a.Kind == types.Unknown { // a polymorphic "any" argument
					oid = oidAny
				}
				args[i] = oid
			}
			if listed[procKey(procInfo{name: name, args: args, varArgs: f.Variadic})] {
				continue // PostgreSQL's row with these very types (int4multirange(int4range)), before any polymorphic rewrite
			}
			ret, _, _ := pgtypes.OIDOf(f.Ret)
			if polyRange(f.Args, args, &ret) || polyArgs(name, args, &ret, sigs) { // ranges.go, polyargs.go: one row per PostgreSQL function
				key := fmt.Sprint(args, ret)
				if seen[key] {
					continue
				}
				seen[key] = true
			}
			p := procInfo{oid: next, name: name, args: args, ret: ret, nargs: len(f.Args), varArgs: f.Variadic}
			if listed[procKey(p)] {
				continue // PostgreSQL's row
			}
			if !pgNames()[name] {
				continue // the engine's own helper: see pgNames
			}
			outParams(&p, f.Ret)
			out = append(out, p)
			next++
		}
	}
	// the set-returning functions follow, so that adding one leaves the
	// OIDs of the others as they were
	for _, p := range setFuncProcs {
		p.oid, p.nargs, p.retset = next, len(p.args), true
		if !listed[procKey(p)] {
			out = append(out, p)
			next++
		}
	}
	for _, p := range recordFuncProcs {
		p.oid, p.nargs = next, len(p.args)
		if !listed[procKey(p)] {
			out = append(out, p)
			next++
		}
	}
	// and the types' I/O functions, under PostgreSQL's own OIDs
	// (typeprocs.go), which pg_type's regproc columns name
	for _, p := range typeProcInfos {
		if !oids[p.oid] {
			out = append(out, p)
		}
	}
	return out
}

// pgNames are the names of PostgreSQL 15's pg_catalog functions sqlgate
// has (internal/pgproc's properties hold every signature of each). An
// overload of the library that PostgreSQL has no row of is listed under
// sqlgate's OIDs only when PostgreSQL has a function of its name (\df
// pg_relation_size shows sqlgate's text overload beside PostgreSQL's
// rows): the engine's internal helpers (pg__money_mul, pg__op_xor ...,
// which operators and aggregates bind to), the reg* types' cast helpers
// (regclass_in ...: PostgreSQL's are regclassin ...) and the SQL
// constructs the grammar turns into calls (coalesce, greatest, current_date,
// user, trim ...: syntax in PostgreSQL, no pg_proc rows) are no
// functions of PostgreSQL's, and pg_proc does not show them.
var pgNames = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, sig := range pgproc.Signatures() {
		out[sig[:strings.IndexByte(sig, '(')]] = true
	}
	return out
})

// outParams gives p, a built-in returning a row of named fields where
// PostgreSQL's function has OUT parameters (pg_identify_object,
// pg_sequence_parameters ...), those parameters: the fields, as
// proallargtypes, proargmodes and proargnames list them and
// pg_get_function_arguments prints them, and its IN arguments' names
// (inArgNames).
func outParams(p *procInfo, ret types.T) {
	if ret.Kind != types.Row || len(ret.Fields) == 0 {
		return
	}
	pp, ok := builtinProp(*p)
	if !ok || !strings.Contains(pp.Args, "OUT ") {
		return
	}
	for _, f := range ret.Fields {
		oid, _, _ := pgtypes.OIDOf(f.Type)
		p.outTypes, p.outNames = append(p.outTypes, oid), append(p.outNames, f.Name)
	}
	p.ret = oidRecord
	p.argNames = inArgNames(pp.Args, p.args)
}

// inArgNames are the names of the IN arguments args in text, PostgreSQL's
// pg_get_function_arguments of the function ("classid oid, objid oid,
// OUT type text"): each IN item is a name before its type, as format_type
// prints it; nil when an item is not.
func inArgNames(text string, args []any) []string {
	items := strings.Split(text, ", ")
	if len(items) < len(args) {
		return nil
	}
	var names []string
	for i, a := range args {
		typ := builtinTypeText(a.(uint32))
		name, ok := strings.CutSuffix(items[i], " "+typ)
		if !ok || typ == "" || strings.ContainsAny(name, " \"") {
			return nil
		}
		names = append(names, name)
	}
	return names
}

// builtinTypeText is format_type(oid, NULL) of a built-in type ("" for
// an OID that is none).
func builtinTypeText(oid uint32) string {
	if n, ok := pgtypes.FormatTypeName(oid, -1, false); ok {
		return n
	}
	for i := range pgTypes {
		if t := &pgTypes[i]; t.oid == oid {
			if t.elem != 0 && strings.HasPrefix(t.name, "_") {
				return builtinTypeText(t.elem) + "[]"
			}
			return t.name
		}
	}
	return ""
}

func (c *Catalog) procRows() []row {
	procs := c.allProcs()
	rows := make([]row, len(procs))
	for i, p := range procs {
		variadic := 0
		if p.varArgs && len(p.args) > 0 {
			variadic = int(p.args[len(p.args)-1].(uint32))
		}

		ns := p.ns
		if ns == 0 {
			ns = nsPgCatalog
		}
		rows[i] = row{
			"oid": p.oid, "proname": p.name, "pronamespace": ns, "proowner": ownerOID,
			"prolang": langInternal, "procost": 1.0, "prorows": p.rows, "provariadic": variadic,
			"prosupport": 0, "prokind": "f", "prosecdef": false, "proleakproof": false,
			"proisstrict": true, "proretset": p.retset, "provolatile": "i", "proparallel": "s",
			"pronargs": p.nargs, "pronargdefaults": 0, "prorettype": p.ret, "proargtypes": anyOIDs(pgArgs(p)),
			"prosrc": p.name,
		}
		if pp, ok := builtinProp(p); ok && !p.userFunc { // procprop.go
			rows[i]["provolatile"], rows[i]["proisstrict"], rows[i]["proparallel"] = string(pp.Volatile), pp.Strict, string(pp.Parallel)
			if pp.Src != "" || pp.Body != "" {
				rows[i]["prosrc"], rows[i]["prolang"], rows[i]["procost"] = pp.Src, langOID(pp.Lang), float64(pp.Cost)
			}
		}
		if p.userFunc {
			rows[i]["prolang"], rows[i]["proisstrict"], rows[i]["provolatile"], rows[i]["proparallel"] = p.lang, false, "v", p.parallel
			rows[i]["proowner"] = c.roleOID(p.owner)
			if p.src != "" || p.sql {
				rows[i]["prosrc"] = p.src
			}
			if p.sql {
				rows[i]["provolatile"], rows[i]["proisstrict"], rows[i]["procost"] = string(p.volatile), p.strict, 100.0
				var defaults []string
				for _, d := range c.argDefaultTexts(p) { // info.go
					if d != "" {
						defaults = append(defaults, d)
					}
				}
				rows[i]["pronargdefaults"] = len(defaults)
				if len(defaults) > 0 {
					rows[i]["proargdefaults"] = argDefaultsNode(defaults) // exprs.go
				}
			}
			if p.argNames != nil {
				names := make([]any, len(p.argNames))
				for k, n := range p.argNames {
					names[k] = n
				}
				rows[i]["proargnames"] = names
			}
		}
		if p.params != nil {
			var all, modes, names []any
			for _, a := range p.params {
				all, modes, names = append(all, a.typ), append(modes, string(a.mode)), append(names, a.name)
			}
			rows[i]["proallargtypes"], rows[i]["proargmodes"], rows[i]["proargnames"] = all, modes, names
		} else if len(p.outTypes) > 0 {
			var all, modes, names []any
			for k, a := range pgArgs(p) {
				name, mode := "", "i"
				if k < len(p.argNames) {
					name = p.argNames[k]
				}
				if p.varArgs && k == len(p.args)-1 {
					mode = "v"
				}
				all, modes, names = append(all, a), append(modes, mode), append(names, name)
			}
			outMode := "o"
			if p.table {
				outMode = "t"
			}
			for j, t := range p.outTypes {
				all, modes, names = append(all, t), append(modes, outMode), append(names, p.outNames[j])
			}
			rows[i]["proallargtypes"], rows[i]["proargmodes"], rows[i]["proargnames"] = all, modes, names
		}
		if p.pg != nil {
			pgRowColumns(rows[i], p) // PostgreSQL's row: its kind, modes, names (pgprocrows.go)
		} else if variadic != 0 && p.params == nil && len(p.outTypes) == 0 {
			// a VARIADIC parameter is mode v, as in PostgreSQL's rows
			modes := make([]any, len(p.args))
			for k := range modes {
				modes[k] = "i"
			}
			modes[len(modes)-1] = "v"
			rows[i]["proargmodes"], rows[i]["proallargtypes"] = modes, anyOIDs(pgArgs(p))
		}
	}
	return rows
}

func (c *Catalog) tablesViewRows(_ context.Context, s *snapshot) ([]row, error) {
	var rows []row
	for _, t := range s.tables {
		rows = append(rows, row{"schemaname": t.Path.Database, "tablename": t.Path.Table,
			"tableowner": c.storedTableOwner(t), "hasindexes": t.HasPrimaryKey(), "hasrules": false,
			"hastriggers": false, "rowsecurity": false})
	}
	for i := range relationSpecs {
		sp := &relationSpecs[i]
		if sp.kind == 'r' {
			rows = append(rows, row{"schemaname": sp.schema, "tablename": sp.name, "tableowner": c.opts.User,
				"hasindexes": false, "hasrules": false, "hastriggers": false, "rowsecurity": false})
		}
	}
	return rows, nil
}

func extensionRows() []row {
	return []row{{"oid": plpgsqlOID, "extname": "plpgsql", "extowner": ownerOID, "extnamespace": nsPgCatalog,
		"extrelocatable": false, "extversion": "1.0"}}
}

// languageRows are pg_language's: PostgreSQL 15's internal, c and sql
// with their validators, plpgsql (the extension pg_extension lists) with
// its call handler, inline handler and validator, as psql's \dL finds a
// procedural language by its call handler; and sqlgate's python.
func languageRows() []row {
	mk := func(oid uint32, name string, pl, trusted bool, call, inline, validator uint32) row {
		return row{"oid": oid, "lanname": name, "lanowner": ownerOID, "lanispl": pl, "lanpltrusted": trusted,
			"lanplcallfoid": call, "laninline": inline, "lanvalidator": validator}
	}
	return []row{mk(langInternal, "internal", false, false, 0, 0, 2246), mk(langC, "c", false, false, 0, 0, 2247),
		mk(langSQL, "sql", false, true, 0, 0, 2248),
		mk(langPlpgsql, "plpgsql", true, true, plpgsqlOID+1, plpgsqlOID+2, plpgsqlOID+3),
		mk(langPython, "python", true, false, 0, 0, 0)} // udfprocs.go
}

func tablespaceRows() []row {
	return []row{
		{"oid": tablespaceDef, "spcname": "pg_default", "spcowner": ownerOID},
		{"oid": tablespaceGlobal, "spcname": "pg_global", "spcowner": ownerOID},
	}
}

// statSSLRows is pg_stat_ssl: the asking connection's row (sqlgate lists no
// other sessions, as pg_stat_activity lists none), with its TLS version,
// cipher and key bits when it uses TLS. sqlgate asks no client
// certificates, so client_dn, client_serial and issuer_dn are NULL, as
// PostgreSQL shows them for a connection without one.
// statGSSAPIRows is pg_stat_gssapi: the asking connection, which GSSAPI
// neither authenticated nor encrypts (sqlgate has no GSSAPI).
func statGSSAPIRows(ctx context.Context, _ *snapshot) ([]row, error) {
	s := functions.CurrentSession(ctx)
	return []row{{"pid": int(s.BackendPID), "gss_authenticated": false, "encrypted": false}}, nil
}

func statSSLRows(ctx context.Context, _ *snapshot) ([]row, error) {
	s := functions.CurrentSession(ctx)
	r := row{"pid": int(s.BackendPID), "ssl": s.SSL != nil}
	if s.SSL != nil {
		r["version"], r["cipher"], r["bits"] = s.SSL.Version, s.SSL.Cipher, s.SSL.Bits
	}
	return []row{r}, nil
}
