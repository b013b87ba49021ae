package functions

import (
	"context"

	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
	"github.com/sqlgate/sqlgate/types/jsonpath"
)

// PostgreSQL 15's jsonpath functions over jsonb (the evaluator is
// jsonpathexec.go): jsonb_path_exists, jsonb_path_match,
// jsonb_path_query_array, jsonb_path_query_first and the set-returning
// jsonb_path_query (resolveJSONPathSetFunc), each (target, path [, vars
// [, silent]]), their _tz forms (the same here: .datetime() is not
// evaluated), and the operators jsonb @? jsonpath and jsonb @@ jsonpath
// (pg__op_path_exists, pg__op_path_match: silent, no vars).

var tJSONPath = types.JSONPathType

// jpCall is one call's arguments: the path parsed, the document and
// variables decoded, and whether errors are silenced.
type jpCall struct {
	ctx    context.Context // the statement's: like_regex's matcher polls it
	path   *jsonpath.Path
	doc    any
	vars   *jpObject
	silent bool
	exists bool // only whether there are values counts
}

func jpArgs(ctx context.Context, v []any) (*jpCall, error) {
	c := &jpCall{ctx: ctx, vars: &jpObject{}} // vars defaults to '{}'
	var err error
	if c.doc, err = jpDecode(v[0].(string)); err != nil {
		return nil, err
	}
	if c.path, err = jsonpath.Parse(v[1].(string)); err != nil {
		return nil, err
	}
	if len(v) > 2 {
		vars, err := jpDecode(v[2].(string))
		if err != nil {
			return nil, err
		}
		o, ok := vars.(*jpObject)
		if !ok {
			e := sqlerr.New(sqlerr.InvalidParameterValue, "\"vars\" argument is not an object")
			e.Detail = "Jsonpath parameters should be encoded as key-value pairs of \"vars\" object."
			return nil, e
		}
		c.vars = o
	}
	if len(v) > 3 {
		c.silent = v[3].(bool)
	}
	return c, nil
}

// run evaluates the call; a silenced error is ok false, with the values
// found before it (PostgreSQL's silent calls return those).
func (c *jpCall) run() (out []any, ok bool, err error) {
	out, err = jpRun(c.ctx, c.path, c.doc, c.vars, c.exists, c.silent)
	if err != nil {
		if c.silent && silenceable(err) {
			return out, false, nil
		}
		return out, false, err
	}
	return out, true, nil
}

// silenceable reports an error silent = true hides: any but a missing
// variable's.
func silenceable(err error) bool {
	se, ok := err.(*sqlerr.Error)
	return !ok || se.Code != "42704"
}

// jpMatch is jsonb_path_match's result from the path's values.
func jpMatch(out []any, ok bool, silent bool) (any, error) {
	if !ok {
		return nil, nil
	}
	if len(out) == 1 {
		switch x := out[0].(type) {
		case bool:
			return x, nil
		case nil:
			return nil, nil
		}
	}
	if silent {
		return nil, nil
	}
	return nil, sqlerr.New("22038", "single boolean result is expected")
}

func jsonPathFuncs() []*Func {
	var fs []*Func
	argLists := [][]types.T{{tJSONB, tJSONPath}, {tJSONB, tJSONPath, tJSONB}, {tJSONB, tJSONPath, tJSONB, tBool}}
	kinds := []struct {
		name string
		ret  types.T
		body func(c *jpCall) (any, error)
	}{
		{"jsonb_path_exists", tBool, func(c *jpCall) (any, error) {
			c.exists = true
			out, ok, err := c.run()
			if len(out) > 0 && !c.path.Strict {
				// PostgreSQL stops at the first value found in lax mode:
				// an error further on is never met; in strict mode it
				// computes every value, and an error is the call's
				// (executeJsonPath's jspStrictAbsenseOfErrors)
				return true, nil
			}
			if err != nil || !ok {
				return nil, err
			}
			return len(out) > 0, nil
		}},
		{"jsonb_path_match", tBool, func(c *jpCall) (any, error) {
			out, ok, err := c.run()
			if err != nil {
				return nil, err
			}
			return jpMatch(out, ok, c.silent)
		}},
		{"jsonb_path_query_array", tJSONB, func(c *jpCall) (any, error) {
			out, _, err := c.run()
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = []any{}
			}
			return jpEncode(out), nil
		}},
		{"jsonb_path_query_first", tJSONB, func(c *jpCall) (any, error) {
			out, _, err := c.run()
			if err != nil || len(out) == 0 {
				return nil, err
			}
			return jpEncode(out[0]), nil
		}},
	}
	for _, k := range kinds {
		body := k.body
		kernel := rowFunc(k.ret, true, func(ctx context.Context, v []any) (any, error) {
			c, err := jpArgs(ctx, v)
			if err != nil {
				return nil, err
			}
			return body(c)
		})
		for _, name := range []string{k.name, k.name + "_tz"} {
			for _, args := range argLists {
				fs = append(fs, &Func{Name: name, Args: args, Ret: k.ret, Strict: true, Kernel: kernel})
			}
		}
	}
	// the operators: silent, no variables
	for _, op := range []struct{ name, fn string }{{"pg__op_path_exists", "jsonb_path_exists"}, {"pg__op_path_match", "jsonb_path_match"}} {
		fn := op.fn
		fs = append(fs, &Func{Name: op.name, Args: []types.T{tJSONB, tJSONPath}, Ret: tBool, Strict: true,
			Kernel: rowFunc(tBool, true, func(ctx context.Context, v []any) (any, error) {
				c, err := jpArgs(ctx, v)
				if err != nil {
					return nil, err
				}
				c.silent, c.vars, c.exists = true, nil, fn == "jsonb_path_exists"
				out, ok, err := c.run()
				if c.exists && len(out) > 0 && !c.path.Strict {
					return true, nil // found before any error (jsonb_path_exists, lax)
				}
				if err != nil || !ok {
					return nil, err
				}
				if c.exists {
					return len(out) > 0, nil
				}
				return jpMatch(out, ok, true)
			})})
	}
	return fs
}

// resolveJSONPathSetFunc is jsonb_path_query(target, path [, vars [,
// silent]]) and its _tz form: one jsonb row per value of the path.
func resolveJSONPathSetFunc(name string, args []types.T) *SetFunc {
	if name != "jsonb_path_query" && name != "jsonb_path_query_tz" || len(args) < 2 || len(args) > 4 {
		return nil
	}
	want := []types.T{tJSONB, tJSONPath, tJSONB, tBool}[:len(args)]
	for i, a := range args {
		if pgTypeOf(a) != pgUnknown && !(a.Kind == want[i].Kind && a.Variant == want[i].Variant) {
			return nil
		}
	}
	return &SetFunc{Name: name, Args: want, Ret: tJSONB, Rows: func(ctx context.Context, v []any) (func() (any, bool, error), error) {
		for _, x := range v {
			if x == nil {
				return none, nil
			}
		}
		c, err := jpArgs(ctx, v)
		if err != nil {
			return nil, err
		}
		out, _, err := c.run()
		if err != nil {
			return nil, err
		}
		items := make([]any, len(out))
		for i, x := range out {
			items[i] = jpEncode(x)
		}
		return listRows(items), nil
	}}
}
