package lower

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/sqlgate/sqlgate/binder"
	"github.com/sqlgate/sqlgate/exec"
)

// fileTableNode reads a server-side file in FROM (binder.FileTable:
// read_parquet, read_arrow, read_csv). The file is opened when the
// operator first runs, so a plan built and never run reads nothing.
type fileTableNode struct {
	file binder.FileRelation
	out  *arrow.Schema
}

func lowerFileTable(x *binder.FileTable) (Node, error) {
	return &fileTableNode{file: x.File, out: schemaOf(x.Columns())}, nil
}

func (n *fileTableNode) Schema() *arrow.Schema     { return n.out }
func (n *fileTableNode) Inputs() []Node            { return nil }
func (n *fileTableNode) Explain() (string, string) { return "file_scan", n.file.String() }
func (n *fileTableNode) Build(rt *Runtime) (exec.Operator, error) {
	return &fileScan{file: n.file, out: n.out}, nil
}

// fileScan is the operator of a fileTableNode.
type fileScan struct {
	file binder.FileRelation
	out  *arrow.Schema
	rows binder.FileRows
	done bool
}

func (o *fileScan) Schema() *arrow.Schema { return o.out }

func (o *fileScan) Next(ctx context.Context) (arrow.RecordBatch, error) {
	if o.done {
		return nil, nil
	}
	if o.rows == nil {
		r, err := o.file.Open(ctx)
		if err != nil {
			return nil, err
		}
		o.rows = r
	}
	for {
		b, err := o.rows.Next(ctx)
		if err != nil || b == nil {
			if b == nil && err == nil {
				o.Close()
			}
			return nil, err
		}
		if b.NumRows() == 0 {
			b.Release()
			continue
		}
		// The columns keep their data; the names and nullability are the
		// bound columns' (an alias renames them).
		out := array.NewRecordBatch(o.out, b.Columns(), b.NumRows())
		b.Release()
		return out, nil
	}
}

func (o *fileScan) Close() {
	o.done = true
	if o.rows != nil {
		o.rows.Close()
		o.rows = nil
	}
}
