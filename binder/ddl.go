package binder

import (
	"slices"
	"strconv"
	"strings"

	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Table properties read from CREATE TABLE ... WITH (...): Fluss's own keys.
const (
	propBucketNum = "bucket.num"
	propBucketKey = "bucket.key"
)

// bindCreateTable builds a table descriptor from CREATE TABLE. Column
// types come from the sql/ rewrite (which parsed every Fluss and PostgreSQL
// spelling); constraints and options from the tree. The store validates
// the Fluss rules (key types, reserved names, bucket keys).
func (b *binder) bindCreateTable(ct *pt.CreateTable) (Statement, error) {
	if ct.Query != nil {
		return b.bindCreateTableAs(ct)
	}
	switch {
	case ct.Like != nil:
		return nil, sqlerr.NotSupported("CREATE TABLE ... LIKE")
	case ct.Temporary:
		return nil, sqlerr.NotSupported("temporary tables")
	case ct.Partitioned:
		return nil, sqlerr.NotSupported("PARTITION BY (use WITH ('bucket.num' = 'N') for buckets)")
	}
	desc := fluss.TableDescriptor{Properties: map[string]string{}}
	var pk []string
	serial := map[string]bool{}
	unconstrained := map[int]bool{}
	var likeMeta map[int]fluss.ColumnMeta // columns copied by LIKE (createlike.go)
	like := &likeExtras{}                 // their CHECK constraints and identity sequences
	for _, cd := range ct.Columns {
		name := cd.Name
		if lc, ok, err := b.likeColumns(name); ok { // LIKE source (createlike.go)
			if err != nil {
				return nil, err
			}
			if len(lc.pk) > 0 && len(pk) > 0 {
				return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", ct.Name.Name)
			}
			like.add(lc, len(desc.Schema.Columns))
			for j, m := range lc.meta {
				if !m.IsZero() {
					if likeMeta == nil {
						likeMeta = map[int]fluss.ColumnMeta{}
					}
					likeMeta[len(desc.Schema.Columns)+j] = m
				}
			}
			desc.Schema.Columns = append(desc.Schema.Columns, lc.cols...)
			pk = append(pk, lc.pk...)
			continue
		}
		tn := b.stmt.ColumnTypes[name]
		if tn == nil {
			return nil, b.errAt(cd, sqlerr.New(sqlerr.SyntaxError, "column %q has no type", name))
		}
		t, isSerial, err := columnType(tn, b.typeCatalog()) // coldefs.go: SERIAL too
		if err != nil {
			err = b.refuseCompositeColumn(name, tn, err) // composite.go
		}
		if err == nil {
			err = RefuseUnlimitedChar(name, t)
		}
		if err != nil {
			return nil, b.columnTypeErr(cd, name, tn, err)
		}
		if isSerial {
			serial[name] = true
		}
		t = ddlTimeDefaults(tn, t)
		numeric := t.Kind == types.Decimal && t.Precision == 0
		if numeric {
			t = types.StoredNumericType
		}
		col := fluss.Column{Name: name, Type: t}
		if numeric { // shown as numeric, stored as the widest DECIMAL
			unconstrained[len(desc.Schema.Columns)] = true
		}
		for _, opt := range cd.Options {
			switch opt.Kind {
			case pt.ColNotNull:
				col.Type.NotNull = true
			case pt.ColNull:
				col.Type.NotNull = false
			case pt.ColPrimaryKey:
				if len(pk) > 0 {
					return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", ct.Name.Name)
				}
				pk = append(pk, name)
			case pt.ColComment:
				col.Comment = opt.Comment
			default:
				return nil, b.errAt(cd, refuseColumnOption(opt))
			}
		}
		desc.Schema.Columns = append(desc.Schema.Columns, col)
	}
	if err := refuseDuplicateColumns(desc.Schema.Columns); err != nil {
		return nil, err
	}
	for _, c := range ct.Constraints {
		switch c.Kind {
		case pt.ConPrimaryKey:
			if len(pk) > 0 {
				return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table %q are not allowed", ct.Name.Name)
			}
			if c.KeyExpr {
				return nil, sqlerr.NotSupported("expressions in PRIMARY KEY")
			}
			pk = append(pk, c.Keys...)
		default:
			return nil, refuseTableConstraint(c)
		}
	}
	if len(pk) > 1 && len(pk) != countInline(ct) && countInline(ct) > 0 {
		return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table %q are not allowed", ct.Name.Name)
	}
	desc.Schema.PrimaryKey = pk
	if n := b.stmt.PrimaryKeyName; n != "" && len(pk) > 0 && n != fluss.PrimaryKeyName(ct.Name.Name) {
		if desc.CustomProperties == nil {
			desc.CustomProperties = map[string]string{}
		}
		desc.CustomProperties[fluss.PrimaryKeyNameProperty] = n // CONSTRAINT n PRIMARY KEY
	}
	desc.PartitionKeys = b.stmt.PartitionKeys // PARTITIONED BY: the store checks them
	if b.stmt.PartitionStrategy != "" {       // PARTITION BY LIST (col)
		if err := bindPartitionBy(ct.Name.Name, &desc, b.stmt.PartitionStrategy); err != nil {
			return nil, err
		}
	}
	if ct.HasComment {
		desc.Comment = ct.Comment
	}
	for k, v := range b.stmt.Properties {
		key := strings.ToLower(k)
		switch key {
		case propBucketNum, "bucket_num", "buckets":
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return nil, sqlerr.New(sqlerr.InvalidParameterValue, "invalid value for %q: %q (a positive whole number is required)", propBucketNum, v)
			}
			desc.BucketCount = n
		case propBucketKey, "bucket_key":
			for _, part := range strings.Split(v, ",") {
				if p := strings.ToLower(strings.TrimSpace(part)); p != "" {
					desc.BucketKey = append(desc.BucketKey, p)
				}
			}
		default:
			desc.Properties[k] = v
		}
	}
	path, err := b.createPath(ct.Name)
	if err == nil {
		err = b.refuseTypeNamed(path) // composite.go
	}
	if err != nil {
		return nil, err
	}
	applyLikeMeta(&desc, likeMeta)
	// the domains first: a domain's column keeps DEFAULT NULL
	// (nullDefaultKept), which bindColumnMeta decides
	b.noteDomainColumns(&desc)                                              // domains.go
	seqs, err := b.bindColumnMeta(path, &desc, serial, unconstrained, like) // coldefs.go
	if err == nil {
		err = b.bindUniques(path, &desc, like.uniques) // unique.go
	}
	if err == nil {
		err = b.bindForeignKeys(path, &desc) // fkeys.go
	}
	if err == nil {
		err = bindCollations(&desc, b.stmt.Collations)
	}
	if err != nil {
		return nil, err
	}
	return &CreateTable{Path: path, Descriptor: desc, IfNotExists: ct.IfNotExists, Sequences: seqs}, nil
}

// bindPartitionBy checks CREATE TABLE ... PARTITION BY LIST (col) as
// PostgreSQL does before Fluss's own rules apply in the store (the key's
// type, a primary key that needs a column besides it): the column must
// exist (42703) and a primary key must hold it (0A000, PostgreSQL's rule
// for a unique constraint on a partitioned table, which is Fluss's too).
// The strategy is kept with the table (fluss.PartitionStrategyProperty):
// it makes the table PostgreSQL's, whose rows need a partition created
// for their value (no partition is created by a write).
func bindPartitionBy(table string, desc *fluss.TableDescriptor, strategy string) error {
	for _, k := range desc.PartitionKeys {
		if !slices.ContainsFunc(desc.Schema.Columns, func(c fluss.Column) bool { return c.Name == k }) {
			return sqlerr.New(sqlerr.UndefinedColumn, "column \"%s\" named in partition key does not exist", k)
		}
		if pk := desc.Schema.PrimaryKey; len(pk) > 0 && !slices.Contains(pk, k) {
			return sqlerr.New(sqlerr.FeatureNotSupported, "unique constraint on partitioned table must include all partitioning columns").
				WithDetail("PRIMARY KEY constraint on table \"%s\" lacks column \"%s\" which is part of the partition key.", table, k)
		}
	}
	if desc.CustomProperties == nil {
		desc.CustomProperties = map[string]string{}
	}
	desc.CustomProperties[fluss.PartitionStrategyProperty] = strategy
	return nil
}

// refuseDuplicateColumns is 42701 for a column name a CREATE TABLE has
// twice through its LIKE elements (sql/ refuses two written columns of
// one name, with their position), before the copied CHECK constraints are
// bound over the columns, where the name would be ambiguous instead.
func refuseDuplicateColumns(cols []fluss.Column) error {
	seen := make(map[string]bool, len(cols))
	for _, c := range cols {
		if seen[c.Name] {
			return sqlerr.New(sqlerr.DuplicateColumn, "column \"%s\" specified more than once", c.Name)
		}
		seen[c.Name] = true
	}
	return nil
}

func countInline(ct *pt.CreateTable) int {
	n := 0
	for _, cd := range ct.Columns {
		for _, opt := range cd.Options {
			if opt.Kind == pt.ColPrimaryKey {
				n++
			}
		}
	}
	return n
}

func columnOptionName(opt pt.ColumnOption) string {
	switch opt.Kind {
	case pt.ColDefault:
		return "DEFAULT"
	case pt.ColUnique:
		return "UNIQUE"
	case pt.ColAutoIncrement:
		return "AUTO_INCREMENT"
	case pt.ColCheck:
		return "CHECK"
	case pt.ColReferences:
		return "REFERENCES"
	case pt.ColGenerated:
		return "GENERATED"
	case pt.ColCollate:
		return "COLLATE"
	}
	return "this column option"
}

// bindDropTable binds DROP TABLE and DROP VIEW.
func (b *binder) bindDropTable(dt *pt.DropTable) (Statement, error) {
	if dt.View {
		return b.bindDropView(dt)
	}
	out := &DropTable{IfExists: dt.IfExists}
	for _, tn := range dt.Names {
		out.Paths = append(out.Paths, b.treePath(tn))
	}
	return out, nil
}

// bindCreateTableAs binds CREATE TABLE t [(names)] AS SELECT ...: a log
// table whose columns are the query's (nullable, named by the list if any).
func (b *binder) bindCreateTableAs(ct *pt.CreateTable) (Statement, error) {
	q, ok, err := b.bindQuery(ct.Query) // view.go
	if !ok {
		return nil, sqlerr.NotSupported("CREATE TABLE ... AS of this query")
	}
	if err != nil {
		return nil, err
	}
	cols := q.Columns()
	if len(ct.Columns) > len(cols) {
		return nil, sqlerr.New(sqlerr.SyntaxError, "too many column names were specified")
	}
	desc := fluss.TableDescriptor{Properties: map[string]string{}, PartitionKeys: b.stmt.PartitionKeys}
	p := &Project{Input: q}
	for i, c := range cols {
		name := c.Name
		if i < len(ct.Columns) {
			name = ct.Columns[i].Name
		}
		t := c.T.Nullable()
		switch t.Kind {
		case types.Unknown, types.Null:
			t = types.StringType
		case types.Decimal:
			if t.Precision == 0 {
				t = types.StoredNumericType
			}
		case types.Oid, types.Name, types.Interval:
			return nil, sqlerr.New(sqlerr.FeatureNotSupported, "column %q of type %s cannot be stored in a Fluss table", name, t.PGName())
		}
		if err := RefuseUnlimitedChar(name, t); err != nil {
			return nil, err
		}
		desc.Schema.Columns = append(desc.Schema.Columns, fluss.Column{Name: name, Type: t})
		p.Exprs = append(p.Exprs, b.castTo(&ColumnRef{Index: i, Name: c.Name, T: c.T}, t))
		p.Cols = append(p.Cols, Column{Name: name, T: t})
	}
	path, err := b.createPath(ct.Name)
	if err == nil {
		err = b.refuseTypeNamed(path) // composite.go
	}
	if err != nil {
		return nil, err
	}
	return &CreateTable{Path: path, Descriptor: desc, IfNotExists: ct.IfNotExists, Source: b.finishParams(p), params: b.params}, nil
}

// ddlTimeDefaults gives a column's TIME written without a precision (at
// any nesting level) Fluss's default precision, 0 (TimeType's default),
// where a cast's bare time keeps PostgreSQL's microseconds: a Fluss TIME
// holds milliseconds of the day at most, and a table declared here must
// mean what the same DDL means to Fluss.
func ddlTimeDefaults(tn *sql.TypeName, t types.T) types.T {
	switch {
	case tn == nil:
	case t.Kind == types.Time:
		if len(tn.Args) == 0 {
			t.Precision = 0
		}
	case t.Kind == types.Array && t.Elem != nil:
		e := ddlTimeDefaults(tn.Elem, *t.Elem)
		t.Elem = &e
	case t.Kind == types.Map && t.Key != nil && t.Elem != nil:
		k, v := ddlTimeDefaults(tn.Key, *t.Key), ddlTimeDefaults(tn.Value, *t.Elem)
		t.Key, t.Elem = &k, &v
	case t.Kind == types.Row && len(tn.Fields) == len(t.Fields):
		fs := make([]types.Field, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = types.Field{Name: f.Name, Type: ddlTimeDefaults(tn.Fields[i].Type, f.Type)}
		}
		t.Fields = fs
	}
	return t
}

// bindCollations keeps CREATE TABLE's columns' COLLATE clauses (sql's
// Statement.Collations) in the table's metadata: the catalog shows them;
// every string compares bytewise under them. A type without collations
// refuses one (42804), as in PostgreSQL.
func bindCollations(desc *fluss.TableDescriptor, collations map[string]string) error {
	if len(collations) == 0 {
		return nil
	}
	m := fluss.MetaOf(*desc)
	for i, c := range desc.Schema.Columns {
		name, ok := collations[c.Name]
		if !ok {
			continue
		}
		if !collatable(c.Type) {
			return types.CollationsNotSupported(shownTypeName(c.Type, m.Column(i)))
		}
		m.Columns[i].Collation = name
	}
	fluss.SetTableMeta(desc, m)
	return nil
}

// collatable reports whether a column type has a collation (the string
// types, and arrays of them).
func collatable(t types.T) bool {
	if t.Kind == types.Array && t.Elem != nil {
		return collatable(*t.Elem)
	}
	return (t.Kind == types.String || t.Kind == types.Char) && t.Variant == types.NoVariant
}

// shownTypeName is a column's type as PostgreSQL's messages name it.
func shownTypeName(t types.T, m fluss.ColumnMeta) string {
	if m.PGType != "" {
		return m.PGType
	}
	return t.PGName()
}
