package pgcatalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// fakeStore is a fluss.Catalog holding fixed tables.
type fakeStore struct {
	tables []fluss.TableInfo
	err    error
}

func (f *fakeStore) CreateTable(context.Context, fluss.TablePath, fluss.TableDescriptor, bool) (fluss.TableInfo, error) {
	return fluss.TableInfo{}, errors.New("read-only fake")
}
func (f *fakeStore) DropTable(context.Context, fluss.TablePath, bool) error {
	return errors.New("read-only fake")
}
func (f *fakeStore) GetTable(_ context.Context, p fluss.TablePath) (fluss.TableInfo, error) {
	for _, t := range f.tables {
		if t.Path == p {
			return t, nil
		}
	}
	return fluss.TableInfo{}, sqlerr.New(sqlerr.UndefinedTable, "relation %q does not exist", p.Table)
}
func (f *fakeStore) CreateDatabase(context.Context, string, bool) error {
	return errors.New("read-only fake")
}
func (f *fakeStore) DropDatabase(context.Context, string, bool, bool) error {
	return errors.New("read-only fake")
}

// ListDatabases lists public and the databases the tables name.
func (f *fakeStore) ListDatabases(context.Context) ([]string, error) {
	if f.err != nil {
		return nil, f.err
	}
	out := []string{fluss.DefaultDatabase}
	for _, t := range f.tables {
		if !slices.Contains(out, t.Path.Database) {
			out = append(out, t.Path.Database)
		}
	}
	slices.Sort(out)
	return out, nil
}
func (f *fakeStore) ListTables(_ context.Context, db string) ([]fluss.TableInfo, error) {
	if f.err != nil {
		return nil, f.err
	}
	var out []fluss.TableInfo
	for _, t := range f.tables {
		if t.Path.Database == db {
			out = append(out, t)
		}
	}
	return out, nil
}

func notNull(t types.T) types.T { t.NotNull = true; return t }

func testStore() *fakeStore {
	return &fakeStore{tables: []fluss.TableInfo{
		{Path: fluss.TablePath{Database: "public", Table: "events"}, TableID: 2, Descriptor: fluss.TableDescriptor{
			Schema:      fluss.Schema{Columns: []fluss.Column{{Name: "ts", Type: types.TimestampType(3)}, {Name: "msg", Type: types.StringType, Comment: "the message"}}},
			BucketCount: 3,
		}},
		{Path: fluss.TablePath{Database: "public", Table: "orders"}, TableID: 1, Descriptor: fluss.TableDescriptor{
			Schema: fluss.Schema{Columns: []fluss.Column{
				{Name: "id", Type: notNull(types.Int64Type)},
				{Name: "region", Type: notNull(types.T{Kind: types.String, Length: 8})},
				{Name: "amount", Type: types.DecimalType(10, 2)},
				{Name: "tags", Type: types.ArrayOf(types.StringType)},
			}, PrimaryKey: []string{"region", "id"}},
			BucketCount: 4, BucketKey: []string{"region"},
		}},
	}}
}

// scanAll scans a relation and renders each row as "v1|v2|..." (NULL as ∅).
func scanAll(t *testing.T, c *Catalog, schema, name string, cols ...string) []string {
	t.Helper()
	tb, ok := c.Table(context.Background(), schema, name)
	if !ok {
		t.Fatalf("%s.%s: not served", schema, name)
	}
	var proj []int
	for _, col := range cols {
		i := tb.Info().ColumnIndex(col)
		if i < 0 {
			t.Fatalf("%s.%s has no column %s", schema, name, col)
		}
		proj = append(proj, i)
	}
	r, err := tb.Scan(context.Background(), fluss.ScanOptions{Projection: proj})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var out []string
	for {
		rec, err := r.Next(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if rec == nil {
			return out
		}
		for i := 0; i < int(rec.NumRows()); i++ {
			parts := make([]string, rec.NumCols())
			for k, a := range rec.Columns() {
				parts[k] = render(a, i)
			}
			out = append(out, strings.Join(parts, "|"))
		}
		rec.Release()
	}
}

func render(a arrow.Array, i int) string {
	if a.IsNull(i) {
		return "∅"
	}
	if l, ok := a.(*array.List); ok {
		s, e := l.ValueOffsets(i)
		var parts []string
		for k := s; k < e; k++ {
			parts = append(parts, render(l.ListValues(), int(k)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	return a.ValueStr(i)
}

func TestRelationsHavePostgresShape(t *testing.T) {
	c := New(testStore(), Options{})
	seen := map[string]bool{}
	for _, s := range relationSpecs {
		key := s.schema + "." + s.name
		if seen[key] {
			t.Errorf("%s declared twice", key)
		}
		seen[key] = true
		tb, ok := c.Table(context.Background(), s.schema, s.name)
		if !ok {
			t.Fatalf("%s not served", key)
		}
		if tb.Info().HasPrimaryKey() || tb.Info().TableID != 0 {
			t.Errorf("%s: virtual relations have no key and no TableID", key)
		}
		// every relation scans, generated or empty, with all its columns
		r, err := tb.Scan(context.Background(), fluss.ScanOptions{})
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		for {
			rec, err := r.Next(context.Background())
			if err != nil {
				t.Fatalf("%s: %v", key, err)
			}
			if rec == nil {
				break
			}
			if !rec.Schema().Equal(tb.Info().ArrowSchema()) {
				t.Errorf("%s: batch schema %v, want %v", key, rec.Schema(), tb.Info().ArrowSchema())
			}
			rec.Release()
		}
		r.Close()
	}
	for _, want := range []string{"pg_catalog.pg_class", "pg_catalog.pg_attribute", "pg_catalog.pg_type",
		"pg_catalog.pg_index", "pg_catalog.pg_constraint", "pg_catalog.pg_stat_activity", "pg_catalog.pg_foreign_table",
		"information_schema.columns", "information_schema.parameters", "information_schema.referential_constraints"} {
		if !seen[want] {
			t.Errorf("%s missing", want)
		}
	}
	if _, ok := c.Table(context.Background(), "pg_catalog", "pg_nosuch"); ok {
		t.Error("pg_nosuch served")
	}
	if _, ok := c.Table(context.Background(), "public", "pg_class"); ok {
		t.Error("pg_class served under public: the engine routes unqualified names itself")
	}
}

func TestGeneratedRows(t *testing.T) {
	c := New(testStore(), Options{User: "alice"})
	cases := []struct {
		schema, rel string
		cols        []string
		filter      string // keep rows containing this
		want        []string
	}{
		{"pg_catalog", "pg_class", []string{"oid", "relname", "relnamespace", "relkind", "relnatts", "relhasindex", "relam", "reltype", "relreplident"}, "|2200|",
			[]string{"16386|events|2200|r|2|false|2|4210690|d", "16385|orders|2200|r|4|true|2|4210689|d", "8404993|orders_pkey|2200|i|2|false|403|0|n"}},
		{"pg_catalog", "pg_attribute", []string{"attrelid", "attname", "atttypid", "atttypmod", "attnum", "attnotnull", "attlen", "attndims", "attcollation", "attidentity"}, "16385|",
			[]string{"16385|ctid|27|-1|-1|true|6|0|0|", "16385|xmin|28|-1|-2|true|4|0|0|", "16385|cmin|29|-1|-3|true|4|0|0|",
				"16385|xmax|28|-1|-4|true|4|0|0|", "16385|cmax|29|-1|-5|true|4|0|0|", "16385|tableoid|26|-1|-6|true|4|0|0|",
				"16385|id|20|-1|1|true|8|0|0|", "16385|region|1043|12|2|true|-1|0|100|",
				"16385|amount|1700|655366|3|false|-1|0|0|", "16385|tags|1009|-1|4|false|-1|1|100|"}},
		{"pg_catalog", "pg_attribute", []string{"attrelid", "attname", "attnum"}, "8404993|",
			[]string{"8404993|region|1", "8404993|id|2"}},
		{"pg_catalog", "pg_index", []string{"indexrelid", "indrelid", "indnatts", "indisprimary", "indisunique", "indkey"}, "",
			[]string{"8404993|16385|2|true|true|{2,1}"}},
		{"pg_catalog", "pg_index", []string{"indexrelid", "indclass", "indcollation"}, "",
			[]string{"8404993|{3126,3124}|{100,0}"}}, // text_ops (varchar), int8_ops
		{"pg_catalog", "pg_constraint", []string{"oid", "conname", "contype", "conrelid", "conindid", "conkey"}, "",
			[]string{"12599297|orders_pkey|p|16385|8404993|{2,1}"}},
		{"pg_catalog", "pg_namespace", []string{"oid", "nspname", "nspowner", "nspacl"}, "",
			[]string{"11|pg_catalog|10|{alice=UC/alice,=U/alice}", "2200|public|6171|{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}",
				"13207|information_schema|10|{alice=UC/alice,=U/alice}", "99|pg_toast|10|∅"}},
		{"pg_catalog", "pg_type", []string{"oid", "typname", "typrelid", "typtype"}, "|163",
			[]string{"4210690|events|16386|c", "4210689|orders|16385|c"}},
		{"pg_catalog", "pg_roles", []string{"oid", "rolname", "rolsuper"}, "", append([]string{"10|alice|true"}, predefinedRoleRows("%d|%s|false")...)},
		{"pg_catalog", "pg_database", []string{"oid", "datname", "datdba", "encoding"}, "", []string{"2040737551|sqlgate|10|6"}},
		{"pg_catalog", "pg_tables", []string{"schemaname", "tablename", "tableowner", "hasindexes"}, "public|",
			[]string{"public|events|alice|false", "public|orders|alice|true"}},
		{"pg_catalog", "pg_indexes", []string{"indexname", "indexdef"}, "",
			[]string{"orders_pkey|CREATE UNIQUE INDEX orders_pkey ON public.orders USING btree (region, id)"}},
		{"pg_catalog", "pg_settings", []string{"name", "setting"}, "server_version", []string{"server_version|15.8", "server_version_num|150008"}},
		{"pg_catalog", "pg_am", []string{"oid", "amname", "amtype"}, "|t", []string{"2|heap|t"}},
		// pg_proc lists functions' overloads (it once came out empty)
		{"pg_catalog", "pg_proc", []string{"proname", "pronargs", "prorettype"}, "|lower|", []string{"lower|1|25", "lower|1|2283", "lower|1|2283"}}, // lower(text), lower(anyrange), lower(anymultirange)
		{"pg_catalog", "pg_stat_user_tables", []string{"relid", "relname", "n_live_tup"}, "", []string{"16386|events|0", "16385|orders|0"}},
		{"information_schema", "table_constraints", []string{"constraint_name", "table_name", "constraint_type"}, "",
			[]string{"orders_pkey|orders|PRIMARY KEY", "2200_16385_1_not_null|orders|CHECK", "2200_16385_2_not_null|orders|CHECK"}},
		{"information_schema", "key_column_usage", []string{"constraint_name", "column_name", "ordinal_position"}, "",
			[]string{"orders_pkey|region|1", "orders_pkey|id|2"}},
	}
	for _, tc := range cases {
		t.Run(tc.schema+"."+tc.rel, func(t *testing.T) {
			var got []string
			for _, r := range scanAll(t, c, tc.schema, tc.rel, tc.cols...) {
				if strings.Contains(r, tc.filter) || strings.Contains("|"+r, tc.filter) {
					got = append(got, r)
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(tc.want, "\n  "))
			}
		})
	}
	// pg_description: the objects' comments, and the built-ins' own
	// (PostgreSQL's, of the functions pg_proc lists: pgprocrows.go; the
	// operators', 2617, are operators_test.go's)
	var descs []string
	builtin := false
	for _, r := range scanAll(t, c, "pg_catalog", "pg_description", "objoid", "classoid", "objsubid", "description") {
		if strings.Contains(r, "|1255|") {
			builtin = builtin || r == "2803|1255|0|number of input rows"
			continue
		}
		if strings.Contains(r, "|2617|") || strings.Contains(r, "|1247|") {
			continue // operators', built-in types' (TestTypeCommentsMatchPostgres)
		}
		descs = append(descs, r)
	}
	if want := []string{"11|2615|0|system catalog schema", "2200|2615|0|standard public schema", "99|2615|0|reserved schema for TOAST tables",
		"13535|3079|0|PL/pgSQL procedural language",
		"12|2612|0|built-in functions", "13|2612|0|dynamically-loaded C functions", "14|2612|0|SQL-language functions",
		"13539|2612|0|PL/pgSQL procedural language",
		"2|2601|0|heap table access method", "403|2601|0|b-tree index access method", "405|2601|0|hash index access method",
		"783|2601|0|GiST index access method", "2742|2601|0|GIN index access method", "4000|2601|0|SP-GiST index access method",
		"3580|2601|0|block range index (BRIN) access method",
		"100|3456|0|database's default collation", "950|3456|0|standard C collation", "951|3456|0|standard POSIX collation",
		"3765|3600|0|simple dictionary: just lower case and check for stopword", "13163|3600|0|snowball stemmer for english language",
		"3722|3601|0|default word parser", "3727|3764|0|simple dictionary: just lower case and check for stopword",
		"3730|3764|0|synonym dictionary: replace word by its synonym", "3733|3764|0|ispell dictionary",
		"3742|3764|0|thesaurus dictionary: phrase by phrase substitution", "13150|3764|0|snowball stemmer",
		"3748|3602|0|simple configuration", "13164|3602|0|configuration for english language",
		"16386|1259|0|fluss log table, 3 buckets", "16386|1259|2|the message",
		"16385|1259|0|fluss primary-key table, 4 buckets, bucket key (region)"}; fmt.Sprint(descs) != fmt.Sprint(want) || !builtin {
		t.Errorf("pg_description: got\n  %s\nwant\n  %s\nand count(*)'s comment (found: %v)", strings.Join(descs, "\n  "), strings.Join(want, "\n  "), builtin)
	}
	var cols []string
	for _, r := range scanAll(t, c, "information_schema", "columns", "table_schema", "table_name", "column_name", "ordinal_position",
		"is_nullable", "data_type", "character_maximum_length", "numeric_precision", "numeric_scale", "datetime_precision", "udt_name") {
		if strings.HasPrefix(r, "public|") {
			cols = append(cols, r)
		}
	}
	want := []string{
		"public|events|ts|1|YES|timestamp without time zone|∅|∅|∅|3|timestamp",
		"public|events|msg|2|YES|text|∅|∅|∅|∅|text",
		"public|orders|id|1|NO|bigint|∅|64|0|∅|int8",
		"public|orders|region|2|NO|character varying|8|∅|∅|∅|varchar",
		"public|orders|amount|3|YES|numeric|∅|10|2|∅|numeric",
		"public|orders|tags|4|YES|ARRAY|∅|∅|∅|∅|_text",
	}
	if fmt.Sprint(cols) != fmt.Sprint(want) {
		t.Errorf("information_schema.columns:\n  %s\nwant\n  %s", strings.Join(cols, "\n  "), strings.Join(want, "\n  "))
	}
}

func TestScanOptionsAndErrors(t *testing.T) {
	store := testStore()
	c := New(store, Options{})
	tb, _ := c.Table(context.Background(), "pg_catalog", "pg_class")
	r, err := tb.Scan(context.Background(), fluss.ScanOptions{Projection: []int{1}, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := r.Next(context.Background())
	if err != nil || rec == nil || rec.NumRows() != 2 || rec.NumCols() != 1 || rec.Schema().Field(0).Name != "relname" {
		t.Fatalf("limit/projection: %v %v", rec, err)
	}
	rec.Release()
	r.Close()
	if _, err := tb.Scan(context.Background(), fluss.ScanOptions{Projection: []int{999}}); sqlerr.CodeOf(err) != sqlerr.InternalError {
		t.Errorf("bad projection: %v", err)
	}
	for _, write := range []func() error{
		func() error { _, err := tb.Append(context.Background(), nil); return err },
		func() error { _, err := tb.Upsert(context.Background(), nil, fluss.UpsertOptions{}); return err },
		func() error { _, err := tb.Delete(context.Background(), nil); return err },
	} {
		if err := write(); sqlerr.CodeOf(err) != sqlerr.InsufficientPrivilege || !strings.Contains(err.Error(), "permission denied for table pg_class") {
			t.Errorf("write: %v", err)
		}
	}
	view, _ := c.Table(context.Background(), "information_schema", "tables")
	if _, err := view.Append(context.Background(), nil); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Errorf("write to view: %v", err)
	}
	store.err = sqlerr.New(sqlerr.Code("58030"), "disk on fire")
	if _, err := tb.Scan(context.Background(), fluss.ScanOptions{}); sqlerr.CodeOf(err) != sqlerr.Code("58030") {
		t.Errorf("store error not passed on: %v", err)
	}
}

func TestCatalogInfo(t *testing.T) {
	ctx := context.Background()
	var c functions.CatalogInfo = New(testStore(), Options{ServerVersion: "15.8", Version: "0.1.0"})
	if v := c.Version(); !strings.HasPrefix(v, "PostgreSQL 15.8 (sqlgate 0.1.0) on ") {
		t.Errorf("version %q", v)
	}
	rels := []struct {
		name string
		oid  uint32
		ok   bool
	}{
		{"orders", 16385, true}, {"public.orders", 16385, true}, {`"orders"`, 16385, true}, {"ORDERS", 16385, true},
		{`"ORDERS"`, 0, false}, {"orders_pkey", 8404993, true}, {"pg_class", 1259, true},
		{"pg_catalog.pg_class", 1259, true}, {"information_schema.tables", 13425, true}, {"tables", 0, false},
		{"sqlgate.public.orders", 16385, true}, {"nosuch", 0, false},
	}
	for _, r := range rels {
		oid, ok, err := c.LookupRelation(ctx, r.name)
		if err != nil || ok != r.ok || oid != r.oid {
			t.Errorf("LookupRelation(%s) = %d %v %v, want %d %v", r.name, oid, ok, err, r.oid, r.ok)
		}
	}
	if _, _, err := c.LookupRelation(ctx, `a.b.c.d`); sqlerr.CodeOf(err) != invalidName {
		t.Errorf("too many dots: %v", err)
	}
	if _, _, err := c.LookupRelation(ctx, `other.public.t`); sqlerr.CodeOf(err) != sqlerr.FeatureNotSupported {
		t.Errorf("cross-database: %v", err)
	}
	names := map[uint32]string{16385: "orders", 8404993: "orders_pkey", 1259: "pg_class", 13425: "information_schema.tables"}
	for oid, want := range names {
		if got, ok, err := c.RelationName(ctx, oid); got != want || !ok || err != nil {
			t.Errorf("RelationName(%d) = %q %v %v", oid, got, ok, err)
		}
	}
	for _, oid := range []uint32{0, 16384, 16399, 4210689, 12599297} {
		if _, ok, _ := c.RelationName(ctx, oid); ok {
			t.Errorf("RelationName(%d) found", oid)
		}
	}
	// row types print as their table's name; other OIDs are no row type
	rt := c.(functions.RowTypes)
	if got, ok, err := rt.RowTypeName(ctx, 4210689); got != "orders" || !ok || err != nil {
		t.Errorf("RowTypeName(4210689) = %q %v %v", got, ok, err)
	}
	for _, oid := range []uint32{16385, 23, 4210699, 8404993} {
		if got, ok, err := rt.RowTypeName(ctx, oid); ok || err != nil {
			t.Errorf("RowTypeName(%d) = %q %v %v, want not found", oid, got, ok, err)
		}
	}
	if vis, _ := c.RelationVisible(ctx, 13425); vis {
		t.Error("information_schema.tables visible")
	}
	if vis, _ := c.RelationVisible(ctx, 16385); !vis {
		t.Error("orders not visible")
	}
	if d, ok, _ := c.IndexDef(ctx, 8404993, 0, false); !ok || d != "CREATE UNIQUE INDEX orders_pkey ON public.orders USING btree (region, id)" {
		t.Errorf("IndexDef %q", d)
	}
	if d, ok, _ := c.IndexDef(ctx, 8404993, 0, true); !ok || d != "CREATE UNIQUE INDEX orders_pkey ON orders USING btree (region, id)" {
		t.Errorf("IndexDef pretty %q", d)
	}
	if d, ok, _ := c.IndexDef(ctx, 8404993, 2, true); !ok || d != "id" {
		t.Errorf("IndexDef column 2 %q", d)
	}
	if _, ok, _ := c.IndexDef(ctx, 16385, 0, true); ok {
		t.Error("IndexDef of a table")
	}
	if d, ok, _ := c.ConstraintDef(ctx, 12599297, true); !ok || d != "PRIMARY KEY (region, id)" {
		t.Errorf("ConstraintDef %q", d)
	}
	if d, ok, _ := c.Description(ctx, 16385, "pg_class"); !ok || d != "fluss primary-key table, 4 buckets, bucket key (region)" {
		t.Errorf("Description %q", d)
	}
	for _, tc := range []struct {
		oid     uint32
		catalog string
		want    string
	}{
		{2200, "pg_namespace", "standard public schema"},
		{11, "pg_namespace", "system catalog schema"},
		{13535, "pg_extension", "PL/pgSQL procedural language"},
		{13207, "pg_namespace", ""},
		{2200, "pg_extension", ""},
	} {
		if d, ok, _ := c.Description(ctx, tc.oid, tc.catalog); d != tc.want || ok != (tc.want != "") {
			t.Errorf("Description(%d, %s) = %q, %v; want %q", tc.oid, tc.catalog, d, ok, tc.want)
		}
	}
	if d, ok, _ := c.ColumnDescription(ctx, 16386, 2); !ok || d != "the message" {
		t.Errorf("ColumnDescription %q", d)
	}
	if _, ok, _ := c.ColumnDescription(ctx, 16386, 1); ok {
		t.Error("comment on a column without one")
	}
	types := map[string]uint32{"int4": 23, "integer": 23, "INTEGER": 23, "pg_catalog.int8": 20, "text[]": 1009,
		"character varying(10)": 1043, "double precision": 701, "timestamp(3) with time zone": 1184, `"char"`: 18,
		"regclass": 2205, "nosuch": 0}
	for name, want := range types {
		if got, _ := c.LookupType(name); got != want {
			t.Errorf("LookupType(%s) = %d, want %d", name, got, want)
		}
	}
}

func TestTypeTableIsConsistent(t *testing.T) {
	byOID := map[uint32]typeSpec{}
	for _, ts := range pgTypes {
		byOID[ts.oid] = ts
	}
	for _, ts := range pgTypes {
		if ts.array != 0 {
			arr, ok := byOID[ts.array]
			// (an array of a pseudo-type is one too: _record is category P)
			if !ok || arr.elem != ts.oid || (arr.category != "A" && arr.typtype != "p") {
				t.Errorf("%s: array type %d missing or not pointing back", ts.name, ts.array)
			}
		}
	}
}

// fixedRoles is a Roles for tests: orders (table id 1) belongs to bob and
// has grants; events has neither owner nor grants.
type fixedRoles struct{}

func (fixedRoles) RoleList() []RoleInfo {
	return []RoleInfo{{Name: "alice", Superuser: true}, {Name: "bob"}, {Name: "carol"}}
}
func (fixedRoles) TableOwner(id int64) string {
	if id == 1 {
		return "bob"
	}
	return ""
}
func (fixedRoles) TableACL(id int64) []string {
	if id == 1 {
		return []string{"bob=arwdDxt/bob", "carol=r/bob"}
	}
	return nil
}

func TestRolesAndPrivileges(t *testing.T) {
	c := New(testStore(), Options{User: "alice", Roles: fixedRoles{}})
	bob := c.roleOID("bob")
	if bob == ownerOID || bob == c.roleOID("carol") || bob < 1<<31 {
		t.Fatalf("role OIDs: bob %d carol %d", bob, c.roleOID("carol"))
	}
	if c.roleOID("bob") != bob {
		t.Fatal("role OIDs must be stable")
	}
	cases := []struct {
		rel  string
		cols []string
		want []string
	}{
		{"pg_roles", []string{"rolname", "rolsuper", "rolcanlogin"}, []string{"alice|true|true", "bob|false|true", "carol|false|true"}}, // (pg_ roles filtered)
		{"pg_user", []string{"usename", "usesuper"}, []string{"alice|true", "bob|false", "carol|false"}},
		{"pg_tables", []string{"tablename", "tableowner"}, []string{"events|alice", "orders|bob"}},
	}
	for _, tc := range cases {
		var got []string
		for _, r := range scanAll(t, c, "pg_catalog", tc.rel, tc.cols...) {
			if !strings.HasPrefix(r, "pg_") && !strings.HasPrefix(r, "sql_") {
				got = append(got, r)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v want %v", tc.rel, got, tc.want)
		}
	}
	var acl []string
	for _, r := range scanAll(t, c, "pg_catalog", "pg_class", "relname", "relowner", "relacl") {
		if strings.HasPrefix(r, "orders") || strings.HasPrefix(r, "events|") {
			acl = append(acl, r)
		}
	}
	want := []string{"events|10|∅", fmt.Sprintf("orders|%d|{bob=arwdDxt/bob,carol=r/bob}", bob), fmt.Sprintf("orders_pkey|%d|∅", bob)}
	if fmt.Sprint(acl) != fmt.Sprint(want) {
		t.Errorf("pg_class: got %v want %v", acl, want)
	}
	if n, ok := c.RoleName(bob); !ok || n != "bob" {
		t.Errorf("RoleName(bob) = %q %v", n, ok)
	}
}

// predefinedRoleRows formats PostgreSQL's predefined roles (OID, name),
// which pg_roles lists after the server's.
func predefinedRoleRows(format string) []string {
	var out []string
	for _, p := range predefinedRoles {
		out = append(out, fmt.Sprintf(format, p.oid, p.name))
	}
	return out
}
