package binder

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	pt "github.com/sqlgate/sqlgate/sql/tree"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// The table functions over server-side files: read_parquet('file'),
// read_arrow('file') and read_csv('file' [, option, value ...]). Their
// columns are the file's, so the binder asks the catalog (FileCatalog, the
// engine, which owns the file directory and the privileges) to look at the
// file while binding; the bound FileTable carries what the executor opens.

// fileTableFuncs are the table functions over files.
var fileTableFuncs = map[string]bool{"read_parquet": true, "read_arrow": true, "read_csv": true}

// FileCatalog is the optional part of a Catalog that reads server-side
// files; a catalog without it has none (the functions then fail with 0A000).
type FileCatalog interface {
	// FileTable looks at the file a call names: fn is the function's
	// name, args its constant text arguments.
	FileTable(ctx context.Context, fn string, args []string) (FileRelation, error)
}

// FileRelation is a file the statement reads.
type FileRelation interface {
	// Columns are the file's columns (names and types), fixed at bind time.
	Columns() []FileColumn
	// Open starts reading it; each batch has Columns' Arrow types.
	Open(ctx context.Context) (FileRows, error)
	// String describes the call for EXPLAIN.
	String() string
}

// FileColumn is a column of a file.
type FileColumn struct {
	Name string
	Type types.T
}

// FileRows are the batches of an opened file.
type FileRows interface {
	// Next returns the next batch (the caller releases it), nil at the end.
	Next(ctx context.Context) (arrow.RecordBatch, error)
	Close()
}

// FileTable is a table function over a server-side file in FROM.
type FileTable struct {
	File FileRelation
	cols []Column
}

func (n *FileTable) Columns() []Column { return n.cols }
func (n *FileTable) Children() []Node  { return nil }

// bindFileTable binds read_parquet / read_arrow / read_csv (ok false: name
// is none of them).
func (b *binder) bindFileTable(f *pt.FuncCall, name, alias string, ord bool, colNames []string) (Node, bool, error) {
	if !fileTableFuncs[name] {
		return nil, false, nil
	}
	if ord {
		return nil, true, b.errAt(f, sqlerr.NotSupported("WITH ORDINALITY on "+name))
	}
	fc, ok := b.cat.(FileCatalog)
	if !ok {
		return nil, true, b.errAt(f, sqlerr.NotSupported(name+" here"))
	}
	args := make([]string, 0, len(f.Args))
	for _, a := range f.Args {
		v, ok := treeValue(a)
		s, isText := v.(string)
		if !ok || !isText {
			return nil, true, b.errAt(a, sqlerr.New(sqlerr.FeatureNotSupported, "the arguments of %s must be string constants", name).
				WithHint("The file is read while the statement is planned, so its name and options must be known then."))
		}
		args = append(args, s)
	}
	if len(args) == 0 {
		return nil, true, b.errAt(f, sqlerr.New(sqlerr.UndefinedFunction, "function %s() does not exist", name).
			WithHint("%s takes the file's name: %s('file'%s).", name, name, map[bool]string{true: " [, option, value ...]", false: ""}[name == "read_csv"]))
	}
	rel, err := fc.FileTable(b.ctx, name, args)
	if err != nil {
		if se := sqlerr.As(err); se != nil {
			return nil, true, b.errAt(f, se)
		}
		return nil, true, err
	}
	fcols := rel.Columns()
	if len(colNames) > len(fcols) {
		return nil, true, b.errAt(f, sqlerr.New(sqlerr.InvalidColumnReference, "too many column aliases specified for function %s", name))
	}
	n := &FileTable{File: rel}
	for i, c := range fcols {
		cn := c.Name
		if i < len(colNames) {
			cn = colNames[i]
		}
		n.cols = append(n.cols, Column{Name: cn, T: c.Type, Table: alias})
	}
	return n, true, nil
}
