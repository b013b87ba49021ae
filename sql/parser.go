package sql

import (
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pingcap/tidb/pkg/parser"
	"github.com/pingcap/tidb/pkg/parser/ast"
	"github.com/pingcap/tidb/pkg/parser/mysql"
	"github.com/pingcap/tidb/pkg/parser/test_driver"
	pt "github.com/sqlgate/sqlgate/sql/tree"

	"github.com/sqlgate/sqlgate/sqlerr"
)

// Kind classifies a statement.
type Kind int

// Statement kinds. Session and transaction statements (Set ... Copy) are
// intercepted before TiDB and have a nil AST.
const (
	Other Kind = iota
	Select
	Insert
	Update
	Delete
	CreateTable
	DropTable
	Explain
	Set
	Show
	Reset
	Begin
	Commit
	Rollback
	Savepoint
	ReleaseSavepoint
	RollbackToSavepoint
	Discard
	Deallocate
	Copy
	Grant
	Revoke
	Role
	// The schema-management statements of ddlstmts.go (Statement.DDL).
	CreateSchema
	DropSchema
	CreateIndex
	DropIndex
	CommentOn
	Maintenance
	Prepare
	Execute
	AlterTable
	ShowDatabases
	ShowCreateTable
	ShowPartitions
	// The cursor statements of cursorstmts.go (Statement.DDL.Cursor).
	DeclareCursor
	FetchCursor
	CloseCursor
	// SUBSCRIBE (subscribe.go, Statement.DDL.Subscribe).
	Subscribe
	// TRUNCATE (ddlstmts.go: Statement.DDL.Tables, RestartIdentity).
	Truncate
	// Two-phase commit (session.go: the identifier in Statement.Tx.GID):
	// PREPARE TRANSACTION, COMMIT PREPARED, ROLLBACK PREPARED.
	PrepareTransaction
	CommitPrepared
	RollbackPrepared
	// MERGE (merge.go: Statement.Merge; AST is its join's SELECT).
	Merge
	// LISTEN, UNLISTEN and NOTIFY (notify.go: Statement.Notify).
	Listen
	Unlisten
	Notify
	// LOCK [TABLE] (lock.go: Statement.Lock).
	LockTable
	// CREATE TABLE ... PARTITION OF (partitions.go: Statement.DDL.PartitionOf).
	CreatePartition
	// ALTER INDEX (alterindex.go: Statement.DDL.IndexAction; ALTER INDEX
	// ... ATTACH PARTITION is a Maintenance statement).
	AlterIndex
)

var kindNames = [...]string{"Other", "Select", "Insert", "Update", "Delete", "CreateTable", "DropTable",
	"Explain", "Set", "Show", "Reset", "Begin", "Commit", "Rollback", "Savepoint", "ReleaseSavepoint",
	"RollbackToSavepoint", "Discard", "Deallocate", "Copy", "Grant", "Revoke", "Role",
	"CreateSchema", "DropSchema", "CreateIndex", "DropIndex", "CommentOn", "Maintenance", "Prepare", "Execute",
	"AlterTable", "ShowDatabases", "ShowCreateTable", "ShowPartitions", "DeclareCursor", "FetchCursor", "CloseCursor", "Subscribe", "Truncate",
	"PrepareTransaction", "CommitPrepared", "RollbackPrepared", "Merge", "Listen", "Unlisten", "Notify", "LockTable", "CreatePartition", "AlterIndex"}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// sqlMode is listed mode by mode: mysql.GetSQLMode("ANSI") would set only
// the ANSI bit and not expand the combination (pg-clients.md §6).
// NO_BACKSLASH_ESCAPES is a security requirement (pg-clients.md §3).
const sqlMode = "ANSI_QUOTES,PIPES_AS_CONCAT,NO_BACKSLASH_ESCAPES,REAL_AS_FLOAT"

// Parser parses PostgreSQL statements. One per session: it wraps a TiDB
// parser, which is not goroutine-safe.
type Parser struct {
	tidb *parser.Parser
	// slab and items are the rewrite's scratch (rewriter.slab, its
	// top-level output), kept for the next statement: emit copies out all
	// the text, so nothing refers to them once a statement is parsed.
	slab  []piece
	items []item
	// noPlain turns the plain shortcut (plain.go) off, for the tests that
	// compare it with the general rewrite.
	noPlain bool
	// toks and ftoks are the lexers' token buffers, kept for the next
	// statement (no Statement or AST refers to tokens).
	toks  []token
	ftoks []ftok
	// edits is the plain shortcut's scratch (plainRewrite); marks emit's
	// (the fast path's tokens, fasttoks.go).
	edits []int32
	marks []rwMark
	fs    fastSource // the statement's, for the fast path (no allocation)
	// names is the statement's scan of its names, made by the plain
	// shortcut and reused by the general rewrite (namesMemo).
	names namesMemo
	// passes counts the lexer's passes over statement text and TiDB's
	// parses, for the test that the lexing of one statement happens once.
	passes passCounts
	// fastHook, when not nil, sees each statement's rewritten text, the
	// fast path's token source and whether the fast path took it (tests).
	fastHook func(text string, fs *fastSource, ok bool)
	// database and anyCatalog: which catalog qualifier a name may carry
	// (catalogs.go).
	database   string
	anyCatalog bool
	// inner parses the statements other statements hold (checkInner),
	// made when first needed: Parse's buffers belong to the outer one.
	inner *Parser
	// retrying: parseOne is parsing a statement's shortened text for
	// truncatedError, which then tries no shorter one (unclosed.go).
	retrying bool
}

// NewParser returns a Parser.
func NewParser() *Parser {
	p := parser.New()
	mode, err := mysql.GetSQLMode(sqlMode)
	if err != nil {
		// The mode string is a constant; failing here is a programming error
		// caught by every test.
		panic("sql: bad TiDB SQL mode: " + err.Error())
	}
	p.SetSQLMode(mode)
	p.EnableWindowFunc(true)
	return &Parser{tidb: p}
}

// Statement is one parsed statement.
type Statement struct {
	// Text is the original text of this statement, without the trailing ';'
	// and surrounding whitespace.
	Text string
	// Offset is the byte offset of Text in the input passed to Parse.
	Offset int
	Kind   Kind
	// AST is TiDB's AST of the rewritten statement; nil for statements
	// intercepted before TiDB (Set, Show, Reset, transaction control,
	// Discard, Deallocate, Copy).
	AST ast.StmtNode
	// Rewritten is the text handed to TiDB (for debugging).
	Rewritten string
	// NumParams is the highest $n used.
	NumParams int
	// ParamNumbers[i] = n: the TiDB ParamMarkerExpr with Order i stands for $n.
	ParamNumbers []int
	// ColumnTypes is, for CREATE TABLE, the declared type of each column
	// (keyed by column name: unquoted names lower-cased). TiDB's AST shows
	// these columns as TEXT.
	ColumnTypes map[string]*TypeName
	// CreateLike are CREATE TABLE's LIKE elements, in order; each stands
	// in the column list as the column LikePlaceholder(i) (createlike.go).
	CreateLike []LikeClause
	// Temporary is CREATE TEMP | TEMPORARY TABLE (the words removed).
	Temporary bool
	// OnCommit is CREATE TABLE's ON COMMIT clause (the words removed):
	// "DROP", "DELETE ROWS", "PRESERVE ROWS", or "" (sql/ddl.go).
	OnCommit string
	// ViewOptions are CREATE VIEW's WITH (..) options and its WITH CHECK
	// OPTION as check_option's value (viewopts.go).
	ViewOptions []ViewOption
	// Properties is CREATE TABLE ... WITH ('k' = 'v', ...).
	Properties map[string]string
	// PartitionKeys is CREATE TABLE ... PARTITIONED BY (cols) (partitions.go).
	PartitionKeys []string
	// PartitionStrategy is PartitionStrategyList for CREATE TABLE ...
	// PARTITION BY LIST (col), whose column is PartitionKeys' one; "" for
	// PARTITIONED BY (partitions.go).
	PartitionStrategy string
	// ColumnDefaults, Checks and Identity are CREATE TABLE's DEFAULT
	// clauses (by column), CHECK constraints and GENERATED ... AS IDENTITY
	// clauses (by column), taken out of the text TiDB parses (coldefs.go).
	ColumnDefaults map[string]ColumnDefault
	Checks         []CheckClause
	// ForeignKeys are CREATE TABLE's REFERENCES and FOREIGN KEY
	// constraints (foreignkey.go).
	ForeignKeys []ForeignKeyClause
	// Collations are CREATE TABLE's columns' COLLATE C / POSIX /
	// ucs_basic by column name (collations.go).
	Collations map[string]string
	// PrimaryKeyName is CREATE TABLE's CONSTRAINT name PRIMARY KEY's name
	// ("" when unnamed: table_pkey).
	PrimaryKeyName string
	// Uniques are CREATE TABLE's UNIQUE constraints (unique.go).
	Uniques  []UniqueClause
	Identity map[string]*IdentityClause
	// Generated are CREATE TABLE's GENERATED ALWAYS AS (expr) STORED
	// clauses, by column (coldefs.go).
	Generated   map[string]*GeneratedClause
	columnOrder []string
	tableName   string // CREATE TABLE's, for coldefs.go's messages
	// Overriding is INSERT's OVERRIDING SYSTEM VALUE ("system") or
	// OVERRIDING USER VALUE ("user"); "" when not written (coldefs.go).
	Overriding string
	// Sequence is CREATE / ALTER / DROP SEQUENCE (sequence.go).
	Sequence *SequenceStmt
	// Function is CREATE / DROP FUNCTION (function.go).
	Function *FunctionStmt
	// Type is CREATE TYPE ... AS ENUM, DROP TYPE, ALTER TYPE (typestmts.go).
	Type *TypeStmt
	// Domain is CREATE / ALTER / DROP DOMAIN (domains.go).
	Domain *DomainStmt
	// Owner is ALTER ... OWNER TO (owner.go).
	Owner *OwnerStmt
	// ExplainOptions are EXPLAIN's options (analyze, verbose, costs, format
	// ...), lower-case, value "true" when written without one.
	ExplainOptions map[string]string
	// ConflictTarget is the column list of ON CONFLICT (cols) (nil when
	// none was given); ConflictTargetPos is a 1-based character position in
	// it for errors.
	ConflictTarget    []string
	ConflictTargetPos int
	// ConflictConstraint is ON CONFLICT ON CONSTRAINT name's name.
	ConflictConstraint string
	// RowLockStrength is "no key update" or "key share" for SELECT ... FOR
	// NO KEY UPDATE / FOR KEY SHARE, which reach TiDB as FOR UPDATE / FOR
	// SHARE; "" otherwise.
	RowLockStrength string
	// OnConflictDoNothing is INSERT ... ON CONFLICT [(cols)] DO NOTHING.
	OnConflictDoNothing bool
	Set                 *SetStmt
	Show                *ShowStmt
	Tx                  *TxStmt
	// Discard is the target of DISCARD: "all", "plans", "sequences", "temp".
	Discard    string
	Deallocate *DeallocateStmt
	// Notify is LISTEN / UNLISTEN / NOTIFY's channel and payload
	// (notify.go).
	Notify *NotifyStmt
	// Lock is LOCK TABLE's tables and mode (Kind LockTable; AST nil).
	Lock *LockStmt
	// Copy is the COPY statement's details (Kind Copy).
	Copy *CopyStmt
	// Grant is GRANT / REVOKE (Kind Grant, Revoke).
	Grant *GrantStmt
	// Role is CREATE / ALTER / DROP ROLE or USER (Kind Role).
	Role *RoleStmt
	// DDL is a schema-management statement's details (ddlstmts.go: Kinds
	// CreateSchema ... ShowPartitions).
	DDL *DDLStmt
	// Returning is the RETURNING list of INSERT/UPDATE/DELETE (nil when
	// none), parsed as a SELECT list; DMLFrom holds UPDATE ... FROM's and
	// DELETE ... USING's extra tables (From) and the statement's WHERE
	// clause (Where), which then is not in AST. See dml.go.
	Returning *ast.FieldList
	DMLFrom   *ast.SelectStmt
	// InsertAlias is the alias of INSERT INTO t AS alias ("" when none).
	InsertAlias string
	// SearchCycle are the SEARCH / CYCLE clauses of WITH items (cte.go).
	SearchCycle []SearchCycle
	// CurrentOf is UPDATE / DELETE's WHERE CURRENT OF (currentof.go); the
	// AST has WHERE false in its place.
	CurrentOf *CurrentOf
	// ModifyingWith are the data-modifying statements of the statement's
	// top-level WITH list (modifyingwith.go), taken out of it: the
	// statement reads each by its name.
	ModifyingWith []ModifyingCTE
	// Merge is a MERGE's WHEN clauses (merge.go), nil for another
	// statement.
	Merge *MergeStmt

	tail dmlTail // extra statements rewriteDML appended
	// fastInsert holds the rows of an INSERT ... VALUES of literals that
	// the fast path read straight into sqlgate's tree (insertfast.go):
	// AST is then stmt, TiDB's InsertStmt with its table and columns but
	// no Lists, and DMLToTree takes the rows from here.
	fastInsert fastInsert
	cascade    bool      // a DROP statement ending in CASCADE (DropCascade)
	input      string    // the full input of Parse
	segs       []segment // rewritten offset -> input offset
	end        int       // input offset of the end of Text
	// inner is the text of the statements and expressions this one holds
	// and parses when it runs (holds, checkInner).
	inner []innerText
	seg1  [1]segment // segs' storage when the rewrite is the identity (plain.go)
}

// Position returns the 1-based character position in the original input
// (PostgreSQL's error position) of a byte offset into Rewritten, such as
// an AST node's OriginTextPosition().
func (s *Statement) Position(rewrittenOffset int) int {
	if s.segs == nil {
		return charPos(s.input, s.Offset)
	}
	return charPos(s.input, mapOffset(s.segs, rewrittenOffset, s.end))
}

// Parse splits text into statements and parses each. Empty statements
// ("", ";", "-- ping", "/* x */") yield none. A syntax error anywhere fails
// the whole call, as in PostgreSQL, whose parser reads the whole string
// before running any of it.
func (p *Parser) Parse(text string) ([]*Statement, error) {
	toks, err := p.lex(text, p.toks)
	if err != nil {
		return nil, err
	}
	p.toks = toks[:0]
	var stmts []*Statement
	start := 0
	for i := 0; i <= len(toks); i++ {
		if i < len(toks) && !toks[i].isSemicolon(text) {
			continue
		}
		if i < len(toks) && toks[start].kind == tkIdent && inAtomicBody(text, toks[start:i]) { // function.go
			continue
		}
		if i > start {
			st, err := p.parseOne(text, toks[start:i], i < len(toks))
			if err != nil {
				if i < len(toks) {
					err = endAtSemicolon(err, text, toks[i].start)
				}
				return nil, err
			}
			stmts = append(stmts, st)
		}
		start = i + 1
	}
	return stmts, nil
}

// endAtSemicolon places an error "at end of input" of a statement that
// the client ended with a ';' at that ';', where PostgreSQL's grammar,
// which reads on to it, reports it (sqlgate's own statement parsers see
// the statement's tokens without it).
func endAtSemicolon(err error, text string, semi int) error {
	se := sqlerr.As(err)
	if se == nil || se.Code != sqlerr.SyntaxError || se.Message != "syntax error at end of input" {
		return err
	}
	return sqlerr.Wrap(err, sqlerr.SyntaxError, `syntax error at or near ";"`).WithPosition(charPos(text, semi))
}

// parseOne parses one statement. A data-modifying WITH query anywhere but
// in the statement's top-level WITH list always fails the parse (TiDB's
// grammar has none); its error is then PostgreSQL's (dataModifyingWith),
// looked for only on that path.
func (p *Parser) parseOne(src string, toks []token, terminated bool) (*Statement, error) {
	st, err := p.parseStatement(src, toks, terminated)
	if err != nil {
		err = p.unclosedError(src, toks, err)  // unclosed.go
		err = p.truncatedError(src, toks, err) // unclosed.go
		if se := sqlerr.As(err); se != nil && se.Code == sqlerr.SyntaxError && strings.HasPrefix(se.Message, "syntax error") {
			if e := unsupportedStatement(src, toks); e != nil { // unsupported.go
				return nil, e
			}
		}
	}
	if e := stringAfterOperandError(src, toks); e != nil { // strconcat.go
		// PostgreSQL reports the first error: the rewrite's or TiDB's
		// when it lies before the string (INSERT .. VALUES (,8 'y'))
		if se := sqlerr.As(err); se == nil || se.Code != sqlerr.SyntaxError || se.Position <= 0 || se.Position > e.Position {
			st, err = nil, e
		}
	}
	if e, close := fromAliasError(src, toks); e != nil { // fromalias.go
		// PostgreSQL's grammar refuses the subquery when it reads the
		// token after its ")": a syntax error up to that ")" comes first
		if se := sqlerr.As(err); se == nil || se.Code != sqlerr.SyntaxError || se.Position <= 0 || se.Position > charPos(src, toks[close].start) {
			if pe := p.prefixError(src, toks, tokenAtPosition(src, toks, e.Position)); pe != nil {
				return nil, pe // one before the subquery: sqlgate's parse went past it
			}
			return nil, e
		}
	}
	if err == nil {
		for _, in := range st.inner {
			if err := p.checkInner(src, in); err != nil {
				return nil, err
			}
		}
	}
	if err != nil {
		var mw Statement
		left, xerr := extractModifyingWith(src, toks, &mw)
		if xerr != nil {
			return nil, xerr
		}
		if e := dataModifyingWith(src, left); e != nil {
			return nil, e
		}
		if e := p.modifyingWithError(mw.ModifyingWith, err); e != nil {
			return nil, e
		}
	}
	return st, err
}

// modifyingWithError is the syntax error of a data-modifying WITH query
// of the statement that lies before err's, or nil: PostgreSQL's one
// grammar reports the first error of the whole statement, where the
// statement without those queries (WITH x AS (INSERT .. VALUES (1,1
// RETURNING *) SELECT .., whose missing ) made the rest of the input part
// of the query) may fail later than the query itself.
func (p *Parser) modifyingWithError(ms []ModifyingCTE, err error) error {
	se := sqlerr.As(err)
	if len(ms) == 0 || se == nil || se.Code != sqlerr.SyntaxError {
		return nil
	}
	if p.inner == nil {
		p.inner = NewParser()
		p.inner.database, p.inner.anyCatalog = p.database, p.anyCatalog
	}
	for _, m := range ms {
		_, merr := m.Parse(p.inner)
		if me := sqlerr.As(merr); me != nil && me.Code == sqlerr.SyntaxError && me.Position > 0 && me.Position < se.Position {
			return merr
		}
	}
	return nil
}

// innerText is a statement or expression another statement holds as
// text: input[start:end], parsed after prefix ("" for a statement); next
// is the input offset of the token after it (-1: none).
type innerText struct {
	start, end, next int
	prefix           string
}

// holds notes that the statement holds toks[from:to] as text to parse when
// it runs, after prefix, and returns that text.
func (st *Statement) holds(src string, toks []token, from, to int, prefix string) string {
	in := innerText{start: toks[from].start, end: toks[to-1].end, next: -1, prefix: prefix}
	if to < len(toks) {
		in.next = toks[to].start
	}
	st.inner = append(st.inner, in)
	return src[in.start:in.end]
}

// checkInner parses a statement or expression another statement holds
// (a PREPARE's, DECLARE CURSOR's or CREATE MATERIALIZED VIEW's statement,
// a domain's DEFAULT or CHECK expression) as PostgreSQL's one grammar
// parses it with the outer statement: a syntax error in it is the outer
// statement's, at its position in the whole input (one at the end of the
// inner text is at the outer statement's next token), already when a
// client only prepares the outer statement. Other errors wait for the
// outer statement to run, which parses (and binds) the inner text again.
func (p *Parser) checkInner(input string, in innerText) error {
	if p.inner == nil {
		p.inner = NewParser()
		p.inner.database, p.inner.anyCatalog = p.database, p.anyCatalog
	}
	_, err := p.inner.Parse(in.prefix + input[in.start:in.end])
	e := sqlerr.As(err)
	if e == nil || e.Code != sqlerr.SyntaxError {
		return nil
	}
	if e.Message == "syntax error at end of input" {
		if in.next < 0 {
			return syntaxErrorAt(input, nil, 0)
		}
		toks, lerr := lexInto(input, nil)
		if lerr == nil {
			for i, t := range toks {
				if t.start == in.next {
					return syntaxErrorAt(input, toks, i)
				}
			}
		}
		return e
	}
	if n := utf8.RuneCountInString(in.prefix); e.Position > n {
		return e.WithPosition(charPos(input, in.start) - 1 + e.Position - n)
	}
	return e
}

func (p *Parser) parseStatement(src string, toks []token, terminated bool) (*Statement, error) {
	if c := splitCurrentOf(src, toks); c != nil { // currentof.go
		return p.parseCurrentOf(c, terminated)
	}
	first, last := toks[0], toks[len(toks)-1]
	st := &Statement{
		Text:    src[first.start:last.end],
		Offset:  first.start,
		input:   src,
		end:     last.end,
		cascade: len(toks) >= 2 && first.is(src, "DROP") && last.is(src, "CASCADE"),
	}
	if err := singleExprError(src, toks, terminated); err != nil { // singleexpr.go
		return nil, err
	}
	if err := ddlSingleExprError(src, toks, terminated); err != nil { // singleexpr.go
		return nil, err
	}
	if err := nonAssocError(src, toks); err != nil { // nonassoc.go
		return nil, err
	}
	// the tokens as written: the rewriter reads the SET items' = there
	written := toks
	if err := adjacentStringError(src, toks); err != nil { // strconcat.go
		return nil, err
	}
	if err := insertFormError(src, toks); err != nil { // mysqlforms.go
		return nil, err
	}
	if err := withinGroupError(src, toks); err != nil { // withingroup.go
		return nil, err
	}
	if err := typeKeywordCallError(src, toks, terminated); err != nil { // funccast.go
		return nil, err
	}
	toks, err := decodeUnicodeTokens(src, toks) // unicode.go
	if err != nil {
		return nil, err
	}
	if toks, err = rewriteCreateView(src, toks, st); err != nil { // viewopts.go
		return nil, err
	}
	whole := toks
	if toks, err = extractModifyingWith(src, toks, st); err != nil { // modifyingwith.go
		return nil, err
	}
	if len(toks) == 0 { // WITH x AS (UPDATE ...) and no statement after it
		return nil, syntaxErrorAt(src, whole, len(whole))
	}
	if !queryOrWrite(src, toks[0]) {
		// a statement holding a query it parses later (a view's, a
		// cursor's, COPY's): its data-modifying WITH is refused now
		if err := dataModifyingWith(src, toks); err != nil {
			return nil, err
		}
	}
	toks, err = rewriteSearchCycle(src, toks, st) // cte.go
	if err != nil {
		return nil, err
	}
	toks = rewriteMaterialized(src, toks)              // cte.go
	toks = quoteSequenceCalls(src, toks)               // sequence.go
	toks = treatCalls(src, toks)                       // funccast.go
	toks = quoteTypeCalls(src, toks)                   // funccast.go
	toks = collationForCalls(src, toks)                // funccast.go
	toks, qualified, err := p.stripCatalogs(src, toks) // catalogs.go
	if err != nil {
		return nil, err
	}
	refused := false // a token the fast path refuses wherever it stands
	for i := range toks {
		if toks[i].flags&tfOddSpace != 0 {
			refused = true
			break
		}
	}
	p.names = namesMemo{}
	// (t.*) is t.* (starparens.go); the plain shortcut copies the text
	// between tokens, parentheses included, so it is not taken then
	unwrapped := unwrapStars(src, toks)
	if !p.noPlain && !qualified && st.ModifyingWith == nil && len(unwrapped) == len(toks) {
		if text, segs, ok := plainRewrite(src, toks, &st.seg1, &p.edits, &p.names); ok {
			st.Rewritten, st.segs = text, segs
			p.fs = fastSource{plain: true, src: src, toks: toks, edits: p.edits, refused: refused}
			return p.finish(st, src, toks, terminated, &p.fs)
		}
	}
	toks = unwrapped
	orig := toks
	toks, err = normalizeTokens(src, toks)
	if err != nil {
		return nil, err
	}
	st.Collations = columnCollations(src, orig) // collations.go
	if len(toks) == 0 {                         // e.g. a lone COLLATE clause
		return nil, syntaxErrorAt(src, orig, 0)
	}
	if ok, err := parseOwner(src, toks, st); ok { // owner.go
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	if ok, err := parseSession(src, toks, st); ok {
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	if ok, err := parseSequence(src, toks, st); ok { // sequence.go
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	if ok, err := parseTypeStmt(src, toks, st); ok { // typestmts.go
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	if ok, err := parseDomainStmt(src, toks, st); ok { // domains.go
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	if ok, err := parseFunction(src, toks, st); ok { // function.go
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	if at := mergeAt(src, toks); at >= 0 { // merge.go
		if toks, err = rewriteMergeStatement(src, toks, at, st); err != nil {
			return nil, err
		}
	}
	if toks, err = rewriteVariadicArgs(src, toks); err != nil { // variadic.go
		return nil, err
	}
	if toks, err = rewriteNamedArgs(src, toks); err != nil { // namedargs.go
		return nil, err
	}
	if toks, err = p.names.quote(src, toks); err != nil {
		return nil, err
	}
	word := toks[0].word(src)
	if st.Merge != nil {
		word = "" // rewritten whole
	}
	switch word {
	case "CREATE":
		if toks, err = rewriteCreateTable(src, toks, st); err != nil {
			return nil, err
		}
	case "INSERT":
		if toks, err = rewriteInsert(src, toks, st); err != nil {
			return nil, err
		}
	case "UPDATE", "DELETE", "WITH":
		toks = hoistWithIntoInsert(src, toks) // withdml.go
		if toks[0].is(src, "INSERT") {
			// WITH ... INSERT, now INSERT ... WITH ... SELECT: the
			// INSERT's own clauses (AS alias, ON CONFLICT) as without WITH
			if toks, err = rewriteInsert(src, toks, st); err != nil {
				return nil, err
			}
			break
		}
		if toks, err = rewriteDML(src, toks, st); err != nil {
			return nil, err
		}
		toks = rewriteRowLocks(src, toks, st)
	case "SELECT":
		toks = rewriteRowLocks(src, toks, st)
	case "EXPLAIN":
		if toks, err = rewriteExplain(src, toks, st); err != nil {
			return nil, err
		}
		if toks, err = rewriteExplainedDML(src, toks, st); err != nil {
			return nil, err
		}
	}
	toks = rewriteSymmetric(src, toks)
	toks = rewriteTrim(src, toks) // trim.go
	rw := &rewriter{src: src, toks: toks, written: written, slab: p.slab[:0], items: p.items}
	items, err := rw.run(0, len(toks))
	if err != nil {
		return nil, err
	}
	text, segs, params, marks := emit(items, p.marks)
	p.slab, p.items, p.marks = rw.slab[:0], items[:0], marks[:0]
	st.Rewritten, st.segs, st.ParamNumbers = text, segs, params
	for _, n := range params {
		st.NumParams = max(st.NumParams, n)
	}
	p.fs = fastSource{marks: marks, refused: refused}
	return p.finish(st, src, toks, terminated, &p.fs)
}

// finish parses st.Rewritten (toks are the rewritten statement's tokens,
// for error positions; fs where the fast path takes its tokens from) and
// completes st.
func (p *Parser) finish(st *Statement, src string, toks []token, terminated bool, fs *fastSource) (*Statement, error) {
	nodes, rows, err := p.parseRewritten(st.Rewritten, fs)
	if err != nil {
		if e := sqlerr.As(err); e != nil {
			return nil, e
		}
		return nil, st.syntaxError(err, toks, terminated)
	}
	nodes = st.takeTail(nodes)
	if st.Merge != nil {
		if nodes, err = st.Merge.take(nodes); err != nil {
			return nil, err
		}
	}
	if len(nodes) != 1 {
		return nil, sqlerr.New(sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(st.Text)).WithPosition(charPos(src, st.Offset))
	}
	st.AST = nodes[0]
	if rows != nil {
		st.fastInsert = fastInsert{stmt: st.AST.(*ast.InsertStmt), rows: rows}
	}
	st.Kind = classify(st.AST)
	if st.Merge != nil && st.Kind == Select {
		st.Kind = Merge
	}
	if err := orderParams(st); err != nil {
		return nil, err
	}
	return st, nil
}

// parseRewritten parses the rewritten text: with the fast path (fastparse.go)
// when the statement lies in its subset, its tokens built from fs rather
// than lexed again (fasttoks.go), else with TiDB.
// An INSERT's rows that the fast path read straight into sqlgate's tree
// come back in rows (see fastInsert).
func (p *Parser) parseRewritten(text string, fs *fastSource) (_ []ast.StmtNode, rows [][]pt.Expr, _ error) {
	n, rows, ftoks, ok := fastStmtFrom(text, fs, p.ftoks)
	p.ftoks = ftoks[:0]
	if p.fastHook != nil {
		p.fastHook(text, fs, ok)
	}
	if ok {
		return []ast.StmtNode{n}, rows, nil
	}
	p.passes.tidb++
	nodes, err := p.parseTiDB(text)
	return nodes, nil, err
}

// passCounts counts a Parser's passes over statement text: lex, the
// lexer's (lexInto: one per Parse, one more for a WHERE CURRENT OF
// statement, parsed again in its rewritten form); tidb, TiDB's parses
// (its own lexer and grammar, when the fast path declines). The fast
// path's lexer reads no statement text, only the text the rewrite writes
// (fasttoks.go).
type passCounts struct {
	lex, tidb int
}

// lex is lexInto, counted.
func (p *Parser) lex(text string, buf []token) ([]token, error) {
	p.passes.lex++
	return lexInto(text, buf)
}

// parseTiDB runs the TiDB parser. A panic inside it (its value driver
// panics on some literals) becomes an error: bad input must not take the
// session down. The parser resets its state on every call, so it stays
// usable.
func (p *Parser) parseTiDB(text string) (nodes []ast.StmtNode, err error) {
	defer func() {
		if r := recover(); r != nil {
			nodes = nil
			err = sqlerr.New(sqlerr.InternalError, "SQL parser failure: %v", r)
		}
	}()
	nodes, _, err = p.tidb.ParseSQL(text)
	return nodes, err
}

func classify(n ast.StmtNode) Kind {
	switch x := n.(type) {
	case *ast.SelectStmt, *ast.SetOprStmt:
		return Select
	case *ast.InsertStmt:
		return Insert
	case *ast.UpdateStmt:
		return Update
	case *ast.DeleteStmt:
		return Delete
	case *ast.CreateTableStmt:
		return CreateTable
	case *ast.DropTableStmt:
		if x.IsView {
			return Other
		}
		return DropTable
	case *ast.ExplainStmt:
		return Explain
	}
	return Other
}

// paramCollector gathers the parameter markers of an AST.
type paramCollector struct {
	markers []*test_driver.ParamMarkerExpr
}

func (c *paramCollector) Enter(n ast.Node) (ast.Node, bool) {
	if m, ok := n.(*test_driver.ParamMarkerExpr); ok {
		c.markers = append(c.markers, m)
	}
	return n, false
}

func (c *paramCollector) Leave(n ast.Node) (ast.Node, bool) { return n, true }

// orderParams sets each marker's Order to its rank by text offset, which is
// the order in which emit recorded ParamNumbers. (TiDB leaves Order 0.)
func orderParams(st *Statement) error {
	if len(st.ParamNumbers) == 0 {
		return nil
	}
	c := &paramCollector{}
	st.AST.Accept(c)
	if st.DMLFrom != nil {
		st.DMLFrom.Accept(c)
	}
	if st.Returning != nil {
		st.Returning.Accept(c)
	}
	if st.Merge != nil {
		for _, n := range st.Merge.nodes {
			n.Accept(c)
		}
	}
	if len(c.markers) != len(st.ParamNumbers) {
		return sqlerr.New(sqlerr.FeatureNotSupported, "parameters are not supported in this statement")
	}
	sort.Slice(c.markers, func(i, j int) bool { return c.markers[i].Offset < c.markers[j].Offset })
	for i, m := range c.markers {
		m.SetOrder(i)
	}
	return nil
}

// syntaxError converts a TiDB parse error into PostgreSQL's 42601 with the
// position of the offending token in the original text.
func (s *Statement) syntaxError(err error, toks []token, terminated bool) error {
	msg := err.Error()
	rwOff := -1
	if i := strings.Index(msg, ` near "`); i >= 0 {
		rest := msg[i+len(` near "`):]
		if j := strings.LastIndex(rest, "(total length "); j >= 0 {
			if n, e := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(rest[j+len("(total length "):]), ")")); e == nil {
				rwOff = len(s.Rewritten) - n
			}
		} else if strings.HasSuffix(rest, `" `) {
			near := rest[:len(rest)-2]
			if strings.HasSuffix(s.Rewritten, near) {
				rwOff = len(s.Rewritten) - len(near)
			}
		}
	}
	if rwOff < 0 || rwOff > len(s.Rewritten) {
		return sqlerr.Wrap(err, sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(s.Text)).WithPosition(charPos(s.input, s.Offset))
	}
	if rwOff >= len(strings.TrimRight(s.Rewritten, " \t\r\n")) {
		if terminated {
			// PostgreSQL reads on to the ';' and reports it.
			semi := s.end
			for semi < len(s.input) && s.input[semi] != ';' {
				semi++
			}
			return sqlerr.Wrap(err, sqlerr.SyntaxError, `syntax error at or near ";"`).WithPosition(charPos(s.input, semi))
		}
		return sqlerr.Wrap(err, sqlerr.SyntaxError, "syntax error at end of input").WithPosition(charPos(s.input, len(s.input)))
	}
	orig := mapOffset(s.segs, rwOff, s.end)
	// the original token at (or right after) orig
	for _, t := range toks {
		if t.end > orig || (t.synth != "" && t.start >= orig) {
			near := t.text(s.input)
			if t.synth != "" {
				near = s.input[t.start:max(t.end, t.start)]
				if near == "" {
					near = t.synth
				}
			}
			if t.start < orig && t.synth == "" {
				orig = t.start
			}
			return sqlerr.Wrap(err, sqlerr.SyntaxError, "syntax error at or near %s", quoteNear(near)).WithPosition(charPos(s.input, max(orig, t.start)))
		}
	}
	return sqlerr.Wrap(err, sqlerr.SyntaxError, "syntax error at end of input").WithPosition(charPos(s.input, len(s.input)))
}
