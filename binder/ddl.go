package binder

import (
	"strconv"
	"strings"

	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/sqlgate/sqlgate/fluss"
	"github.com/sqlgate/sqlgate/sql"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// Table properties read from CREATE TABLE ... WITH (...): Fluss's own keys.
const (
	propBucketNum = "bucket.num"
	propBucketKey = "bucket.key"
)

// bindCreateTable builds a table descriptor from CREATE TABLE. Column types
// come from the sql/ rewrite (which parsed every Fluss and PostgreSQL
// spelling); constraints and options from the TiDB AST. The store validates
// the Fluss rules (key types, reserved names, bucket keys).
func (b *binder) bindCreateTable(ct *ast.CreateTableStmt) (Statement, error) {
	if ct.Select != nil {
		return b.bindCreateTableAs(ct)
	}
	switch {
	case ct.ReferTable != nil:
		return nil, sqlerr.NotSupported("CREATE TABLE ... LIKE")
	case ct.TemporaryKeyword != ast.TemporaryNone:
		return nil, sqlerr.NotSupported("temporary tables")
	case ct.Partition != nil:
		return nil, sqlerr.NotSupported("PARTITION BY (use WITH ('bucket.num' = 'N') for buckets)")
	}
	desc := fluss.TableDescriptor{Properties: map[string]string{}}
	var pk []string
	serial := map[string]bool{}
	unconstrained := map[int]bool{}
	var likeMeta map[int]fluss.ColumnMeta // columns copied by LIKE (createlike.go)
	for _, cd := range ct.Cols {
		name := ident(cd.Name.Name)
		if cols, meta, likePK, ok, err := b.likeColumns(name); ok { // LIKE source (createlike.go)
			if err != nil {
				return nil, err
			}
			if len(likePK) > 0 && len(pk) > 0 {
				return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", ident(ct.Table.Name))
			}
			for j, m := range meta {
				if !m.IsZero() {
					if likeMeta == nil {
						likeMeta = map[int]fluss.ColumnMeta{}
					}
					likeMeta[len(desc.Schema.Columns)+j] = m
				}
			}
			desc.Schema.Columns = append(desc.Schema.Columns, cols...)
			pk = append(pk, likePK...)
			continue
		}
		tn := b.stmt.ColumnTypes[name]
		if tn == nil {
			tn = b.stmt.ColumnTypes[cd.Name.Name.O]
		}
		if tn == nil {
			return nil, b.errAt(cd, sqlerr.New(sqlerr.SyntaxError, "column %q has no type", name))
		}
		t, isSerial, err := columnType(tn) // coldefs.go: SERIAL too
		if err == nil {
			err = RefuseUnlimitedChar(name, t)
		}
		if err != nil {
			return nil, b.errAt(cd, sqlerr.As(err))
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
			switch opt.Tp {
			case ast.ColumnOptionNotNull:
				col.Type.NotNull = true
			case ast.ColumnOptionNull:
				col.Type.NotNull = false
			case ast.ColumnOptionPrimaryKey:
				if len(pk) > 0 {
					return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table \"%s\" are not allowed", ident(ct.Table.Name))
				}
				pk = append(pk, name)
			case ast.ColumnOptionComment:
				if v, ok := opt.Expr.(ast.ValueExpr); ok {
					col.Comment = v.GetString()
				}
			default:
				return nil, b.errAt(cd, refuseColumnOption(opt))
			}
		}
		desc.Schema.Columns = append(desc.Schema.Columns, col)
	}
	for _, c := range ct.Constraints {
		switch c.Tp {
		case ast.ConstraintPrimaryKey:
			if len(pk) > 0 {
				return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table %q are not allowed", ident(ct.Table.Name))
			}
			for _, k := range c.Keys {
				if k.Column == nil {
					return nil, sqlerr.NotSupported("expressions in PRIMARY KEY")
				}
				pk = append(pk, ident(k.Column.Name))
			}
		default:
			return nil, refuseTableConstraint(c)
		}
	}
	if len(pk) > 1 && len(pk) != countInline(ct) && countInline(ct) > 0 {
		return nil, sqlerr.New(sqlerr.InvalidTableDefinition, "multiple primary keys for table %q are not allowed", ident(ct.Table.Name))
	}
	desc.Schema.PrimaryKey = pk
	desc.PartitionKeys = b.stmt.PartitionKeys // PARTITIONED BY: the store checks them
	for _, opt := range ct.Options {
		if opt.Tp == ast.TableOptionComment {
			desc.Comment = opt.StrValue
		}
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
	path, err := b.createPath(ct.Table)
	if err != nil {
		return nil, err
	}
	applyLikeMeta(&desc, likeMeta)
	seqs, err := b.bindColumnMeta(path, &desc, serial, unconstrained) // coldefs.go
	if err != nil {
		return nil, err
	}
	return &CreateTable{Path: path, Descriptor: desc, IfNotExists: ct.IfNotExists, Sequences: seqs}, nil
}

func countInline(ct *ast.CreateTableStmt) int {
	n := 0
	for _, cd := range ct.Cols {
		for _, opt := range cd.Options {
			if opt.Tp == ast.ColumnOptionPrimaryKey {
				n++
			}
		}
	}
	return n
}

func columnOptionName(opt *ast.ColumnOption) string {
	switch opt.Tp {
	case ast.ColumnOptionDefaultValue:
		return "DEFAULT"
	case ast.ColumnOptionUniqKey:
		return "UNIQUE"
	case ast.ColumnOptionAutoIncrement:
		return "AUTO_INCREMENT"
	case ast.ColumnOptionCheck:
		return "CHECK"
	case ast.ColumnOptionReference:
		return "REFERENCES"
	case ast.ColumnOptionGenerated:
		return "GENERATED"
	case ast.ColumnOptionCollate:
		return "COLLATE"
	}
	return "this column option"
}

func (b *binder) bindDropTable(dt *ast.DropTableStmt) (Statement, error) {
	if dt.IsView {
		return b.bindDropView(dt)
	}
	out := &DropTable{IfExists: dt.IfExists}
	for _, tn := range dt.Tables {
		out.Paths = append(out.Paths, b.tablePath(tn))
	}
	return out, nil
}

// bindCreateTableAs binds CREATE TABLE t [(names)] AS SELECT ...: a log
// table whose columns are the query's (nullable, named by the list if any).
func (b *binder) bindCreateTableAs(ct *ast.CreateTableStmt) (Statement, error) {
	sel, ok := ct.Select.(*ast.SelectStmt)
	var q Node
	var err error
	if ok {
		q, err = b.bindSelect(sel)
	} else if so, isSet := ct.Select.(*ast.SetOprStmt); isSet {
		q, err = b.bindSetOpr(so)
	} else {
		return nil, sqlerr.NotSupported("CREATE TABLE ... AS of this query")
	}
	if err != nil {
		return nil, err
	}
	cols := q.Columns()
	if len(ct.Cols) > len(cols) {
		return nil, sqlerr.New(sqlerr.SyntaxError, "too many column names were specified")
	}
	desc := fluss.TableDescriptor{Properties: map[string]string{}, PartitionKeys: b.stmt.PartitionKeys}
	p := &Project{Input: q}
	for i, c := range cols {
		name := c.Name
		if i < len(ct.Cols) {
			name = ident(ct.Cols[i].Name.Name)
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
	path, err := b.createPath(ct.Table)
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
