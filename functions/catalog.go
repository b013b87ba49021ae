package functions

import (
	"context"
	"crypto/tls"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/sqlgate/sqlgate/access"
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// CatalogInfo is what the catalog functions (pg_get_indexdef, format_type,
// to_regclass, obj_description ...) need from the live catalog. pgcatalog's
// Catalog implements it; the engine puts it in each statement's context
// with WithCatalog. Names are resolved as PostgreSQL's regclass/regtype
// input functions do (optionally schema-qualified, double quotes keep
// case). Methods that read the store return its error.
type CatalogInfo interface {
	// Version is version()'s text ("PostgreSQL 15.8 (sqlgate ...) ...").
	Version() string
	// StartTime is pg_postmaster_start_time().
	StartTime() time.Time
	// Database and User are the defaults when the context has no Session.
	Database() string
	User() string
	LookupRelation(ctx context.Context, name string) (oid uint32, ok bool, err error)
	// RelationName is regclass output: the name, qualified when its schema
	// is not on the search path.
	RelationName(ctx context.Context, oid uint32) (name string, ok bool, err error)
	RelationVisible(ctx context.Context, oid uint32) (bool, error)
	// RelationSize is the relation's size in bytes on disk (ok false:
	// no such relation).
	RelationSize(ctx context.Context, oid uint32) (size RelationSize, ok bool, err error)
	LookupType(name string) (oid uint32, ok bool)
	TypeName(oid uint32) (name string, ok bool)
	// FormatType is format_type(oid, typmod); hasTypmod false for a NULL typmod.
	FormatType(oid uint32, typmod int32, hasTypmod bool) string
	LookupNamespace(name string) (oid uint32, ok bool)
	NamespaceName(oid uint32) (name string, ok bool)
	RoleName(oid uint32) (name string, ok bool)
	IndexDef(ctx context.Context, oid uint32, column int, pretty bool) (def string, ok bool, err error)
	ConstraintDef(ctx context.Context, oid uint32, pretty bool) (def string, ok bool, err error)
	// Description is obj_description(objoid, catalog); catalog "" = any.
	Description(ctx context.Context, objoid uint32, catalog string) (text string, ok bool, err error)
	ColumnDescription(ctx context.Context, reloid uint32, attnum int) (text string, ok bool, err error)
	// FunctionSignature is a pg_proc row's result type and argument list
	// as format_type spells them (pg_get_function_result/_arguments).
	FunctionSignature(ctx context.Context, oid uint32) (result, args string, ok bool)
	// DefaultSetting is a configuration parameter's server default
	// (current_setting when the session has no value of its own).
	DefaultSetting(name string) (value string, ok bool)
}

// TypesCatalog is implemented by a CatalogInfo whose store has
// user-defined types (enums, domains, composites): format_type names
// them from its registry.
type TypesCatalog interface {
	Types() *types.Registry
}

// typesOf is c's registry of user-defined types; nil (no type) when c
// has none.
func typesOf(c CatalogInfo) *types.Registry {
	if tc, ok := c.(TypesCatalog); ok {
		return tc.Types()
	}
	return nil
}

// FunctionDefs is implemented by a CatalogInfo that can write a
// function's definition: pg_get_functiondef (NULL without it), and
// pg_get_function_sqlbody, the SQL-standard body (RETURN or BEGIN
// ATOMIC) of a function that has one (pg_dump writes it instead of AS).
type FunctionDefs interface {
	FunctionDef(ctx context.Context, oid uint32) (def string, ok bool)
	FunctionSQLBody(ctx context.Context, oid uint32) (body string, ok bool)
}

// ProcKinds is the optional part of FunctionDefs telling the pg_proc row
// oid's prokind ('f', 'a', 'w'; 0 when no row has oid):
// pg_get_functiondef of an aggregate is an error, as PostgreSQL's.
type ProcKinds interface {
	ProcKind(oid uint32) (name string, kind byte)
}

// ViewDefs is implemented by a CatalogInfo that holds views:
// pg_get_viewdef returns a view's definition (NULL without it).
type ViewDefs interface {
	// ViewDef is the definition of the view with the given OID (pretty:
	// pg_get_viewdef's second argument).
	ViewDef(ctx context.Context, oid uint32, pretty bool) (def string, ok bool, err error)
}

// WrappedViewDefs is implemented by a ViewDefs that wraps a definition's
// lines at a column: pg_get_viewdef(oid, wrap) (pretty, each select-list
// and FROM item on the line before it unless that passes wrap).
type WrappedViewDefs interface {
	WrappedViewDef(ctx context.Context, oid uint32, wrap int) (def string, ok bool, err error)
}

// ExprDefs is implemented by a CatalogInfo whose relations keep
// expressions (defaults, generated columns, CHECKs): pg_get_expr prints
// one as PostgreSQL's deparser does (ok false: the expression's text as
// given).
type ExprDefs interface {
	ExprDef(ctx context.Context, expr string, relid uint32, pretty bool) (def string, ok bool, err error)
}

// SerialSequences is implemented by a CatalogInfo whose columns can own
// sequences (SERIAL, identity): pg_get_serial_sequence's answer, the
// sequence's schema-qualified name.
type SerialSequences interface {
	SerialSequence(ctx context.Context, reloid uint32, column string) (name string, ok bool, err error)
}

// RowTypes is implemented by a CatalogInfo whose tables have row types
// (pg_type rows with typtype 'c'): format_type and regtype output print
// such a type as its table's name, as PostgreSQL does.
type RowTypes interface {
	// RowTypeName is the name of the table whose row type oid is.
	RowTypeName(ctx context.Context, oid uint32) (name string, ok bool, err error)
}

// rowTypeName asks c for a row type's name when c knows row types.
func rowTypeName(ctx context.Context, c CatalogInfo, oid uint32) (string, bool, error) {
	if rt, ok := c.(RowTypes); ok {
		return rt.RowTypeName(ctx, oid)
	}
	return "", false, nil
}

// Session is who is asking: current_user, current_database(),
// pg_backend_pid().
type Session struct {
	User       string
	Database   string
	BackendPID int32
	// ClientAddr and ServerAddr are the connection's two ends as Go's
	// net.Addr prints them ("host:port"; a Unix socket's path or "": no
	// address), for inet_client_addr() and friends (netfuncs.go).
	ClientAddr, ServerAddr string
	// Setting returns the session's current value of a configuration
	// parameter (SET ...); nil or not found: the catalog's default.
	Setting func(name string) (value string, ok bool)
	// SetSetting changes a parameter for the session (or, with local, for
	// the transaction) as SET does, reset meaning SET name TO DEFAULT, and
	// returns its new value (set_config). Nil: the context cannot set.
	SetSetting func(name, value string, reset, local bool) (string, error)
	// Sequences serves nextval, currval, setval and lastval (sequences.go);
	// nil: the context has no sequences.
	Sequences Sequences
	// SSL is the connection's TLS state (pg_stat_ssl); nil: plaintext.
	SSL *SSLStatus
	// Prepared lists the session's prepared statements
	// (pg_prepared_statements, prepared.go); nil: none.
	Prepared func() []PreparedStatement
	// Cursors lists the session's open cursors (pg_cursors, cursors.go);
	// nil: none.
	Cursors func() []Cursor
	// Location is the session's TimeZone, which timestamptz casts, output
	// and date/time functions use. Nil: read the TimeZone setting through
	// Setting (and UTC without one).
	Location *time.Location
	// Style is the session's DateStyle, IntervalStyle and
	// extra_float_digits parsed (StyleOf), which the session parses again
	// whenever one of them changes (SET, RESET, set_config, the end of a
	// transaction or savepoint that restores one), so that kernels never
	// parse them per row. Nil: StyleOf parses the settings through
	// Setting.
	Style *types.Style
	// Advisory takes and releases the session's advisory locks
	// (advisory.go); nil: the context has none.
	Advisory AdvisoryLocks
	// Warn sends a NOTICE or WARNING to the client while the statement
	// runs (nil: dropped), as a C function's ereport(WARNING) does.
	Warn func(*sqlerr.Error)
	// Random is the session's random() generator, which setseed seeds
	// (random.go); nil: a generator of the process's.
	Random *Random
	// Notifications is the session's LISTEN / NOTIFY (notify.go); nil:
	// the context has none.
	Notifications Notifications
	// SchemaUsable reports whether the session's role has USAGE on a
	// schema: the search path leaves out those it lacks, as PostgreSQL's
	// does (unqualified names, current_schema, current_schemas). Nil:
	// every schema.
	SchemaUsable func(schema string) bool
	// TempSchema is the session's temporary schema (pg_temp_N) once the
	// session made it, "" before (pg_my_temp_schema, current_schemas).
	// Nil: none.
	TempSchema func() string
	// Query runs a query a function is given as text (ts_stat's,
	// ts_rewrite's: PostgreSQL runs it through SPI) within the running
	// statement, with the session's privileges and snapshot, and returns
	// its columns' types and rows (types/value.go's values). Nil: the
	// context cannot run one.
	Query func(ctx context.Context, text string) (cols []types.T, rows [][]any, err error)
}

// warn sends e to the client through ctx's session, with a WARNING's
// severity.
func warn(ctx context.Context, e *sqlerr.Error) {
	if w := sessionOf(ctx).Warn; w != nil {
		e.Severity = "WARNING"
		w(e)
	}
}

// SettingOf returns the current value of the session's configuration
// parameter name in ctx (search_path ...), else the catalog's default.
func SettingOf(ctx context.Context, name string) (string, bool) {
	s := sessionOf(ctx)
	if s.Setting != nil {
		if v, ok := s.Setting(name); ok {
			return v, true
		}
	}
	if c := valuesOf(ctx).catalog; c != nil {
		return c.DefaultSetting(name)
	}
	return "", false
}

// LocationOf returns the session time zone in ctx: Session.Location, else
// the zone the session's TimeZone setting names, else UTC (a context
// without a session, or a setting that does not load). ctx may be nil.
func LocationOf(ctx context.Context) *time.Location {
	s := sessionIn(ctx)
	if s == nil {
		return time.UTC
	}
	if s.Location != nil {
		return s.Location
	}
	if s.Setting != nil {
		if v, ok := s.Setting("timezone"); ok {
			if loc, _, err := types.LoadZone(v); err == nil {
				return loc
			}
		}
	}
	return time.UTC
}

// StyleOf returns the session's output settings in ctx: DateStyle and
// IntervalStyle, which write the text of dates, timestamps and intervals
// (and the order that reads a date in numbers), and extra_float_digits,
// which writes reals and doubles; PostgreSQL's defaults without a
// session. ctx may be nil. It is the one way a function reads them: the
// session's parsed Style when it keeps one (Session.Style), else its
// settings parsed now. A kernel reads it once, not per row.
func StyleOf(ctx context.Context) types.Style {
	s := sessionIn(ctx)
	if s == nil {
		return types.Style{}
	}
	if s.Style != nil {
		return *s.Style
	}
	if s.Setting == nil {
		return types.Style{}
	}
	ds, _ := s.Setting("datestyle")
	is, _ := s.Setting("intervalstyle")
	fd, _ := s.Setting("extra_float_digits")
	return types.StyleOf(ds, is, fd)
}

// sessionIn is the session in ctx, without copying it (nil: none).
func sessionIn(ctx context.Context) *Session {
	if ctx == nil {
		return nil
	}
	if v, ok := ctx.Value(valuesKey{}).(*ctxValues); ok && v.hasSession {
		return &v.session
	}
	return nil
}

func catalogOf(ctx context.Context) (CatalogInfo, error) {
	if c := valuesOf(ctx).catalog; c != nil {
		return c, nil
	}
	return nil, sqlerr.New(sqlerr.FeatureNotSupported, "catalog functions are not available here (no catalog in the context)")
}

// sessionOf returns the session in ctx, filled from the catalog's defaults.
func sessionOf(ctx context.Context) Session {
	v := valuesOf(ctx)
	s := v.session
	if c := v.catalog; c != nil {
		if s.User == "" {
			s.User = c.User()
		}
		if s.Database == "" {
			s.Database = c.Database()
		}
	}
	if s.User == "" {
		s.User = access.BootstrapRole
	}
	if s.Database == "" {
		s.Database = "sqlgate"
	}
	return s
}

// rowValue reads row i of a catalog function's argument as a Go value:
// string, int64 (every integer kind and oid), bool, float64, []any (lists),
// nil for NULL.
func rowValue(a arrow.Array, i int) any { return types.ValueAt(a, i) }

// rowFunc is the kernel of a catalog function: body sees each row's
// arguments as rowValue gives them and returns the result (nil = NULL) as
// a Go value of ret: string, int64, bool, time.Time or []any of strings.
// With strict, a NULL argument gives NULL without calling body. A
// cancelled statement stops it within 4096 rows.
func rowFunc(ret types.T, strict bool, body func(ctx context.Context, args []any) (any, error)) Kernel {
	return func(ctx context.Context, mem memory.Allocator, args []arrow.Array, n int) (arrow.Array, error) {
		if err := checkArity(args, n); err != nil {
			return nil, err
		}
		b := array.NewBuilder(mem, ret.ArrowType())
		defer b.Release()
		b.Reserve(n)
		vals := make([]any, len(args))
		for i := 0; i < n; i++ {
			if i%4096 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			null := false
			for k, a := range args {
				vals[k] = rowValue(a, i)
				if vals[k] == nil {
					null = true
				}
			}
			if strict && null {
				b.AppendNull()
				continue
			}
			v, err := body(ctx, vals)
			if err != nil {
				return nil, err
			}
			if err := appendCatalogValue(b, v); err != nil {
				return nil, err
			}
		}
		return b.NewArray(), nil
	}
}

func appendCatalogValue(b array.Builder, v any) error {
	// Catalog functions return times as time.Time; everything else is
	// already types/value.go's representation.
	if t, ok := v.(time.Time); ok {
		if x, ok := b.(*array.TimestampBuilder); ok {
			x.Append(arrow.Timestamp(t.UnixMicro()))
			return nil
		}
	}
	return appendValue(b, v)
}

// oidArg converts a row value to an OID (PostgreSQL's oid is unsigned
// 32-bit; integer arguments were cast to oid by the caller).
func oidArg(v any) uint32 {
	n, _ := v.(int64)
	return uint32(n)
}

// isCatalogFunc reports whether name is one of catalogFuncs (whose kernels
// need WithCatalog and whose arguments are oids, names and arrays).
func isCatalogFunc(name string) bool {
	for _, f := range append(append(append(append(catalogFuncs(), relPropFuncs()...), describeObjectFuncs()...), partitionFuncs()...), append(signalFuncs(), statFuncs()...)...) { // relprops.go, describeobj.go, partitiontree.go, signals.go, statfuncs.go
		if f.Name == name {
			return true
		}
	}
	return false
}

// SSLStatus is what pg_stat_ssl shows of a TLS connection.
type SSLStatus struct {
	Version string // "TLSv1.3", as PostgreSQL (OpenSSL) names it
	Cipher  string
	Bits    int // the cipher's key length
}

// SSLStatusOf describes a TLS connection's state; nil for plaintext.
func SSLStatusOf(st *tls.ConnectionState) *SSLStatus {
	if st == nil {
		return nil
	}
	version := map[uint16]string{tls.VersionTLS10: "TLSv1", tls.VersionTLS11: "TLSv1.1",
		tls.VersionTLS12: "TLSv1.2", tls.VersionTLS13: "TLSv1.3"}[st.Version]
	cipher := tls.CipherSuiteName(st.CipherSuite)
	bits := 128
	if strings.Contains(cipher, "AES_256") || strings.Contains(cipher, "CHACHA20") {
		bits = 256
	}
	return &SSLStatus{Version: version, Cipher: cipher, Bits: bits}
}

// CurrentSession returns the session in ctx (who is asking, its
// connection), filled from the catalog's defaults.
func CurrentSession(ctx context.Context) Session { return sessionOf(ctx) }

// SessionIn returns the session ctx carries, if it carries one.
func SessionIn(ctx context.Context) (Session, bool) {
	v := valuesOf(ctx)
	return v.session, v.hasSession
}
