package functions

import "time"

// PreparedStatement is one row of pg_prepared_statements: a statement the
// session prepared with SQL's PREPARE or the protocol's Parse, as
// PostgreSQL 15 describes it.
type PreparedStatement struct {
	Name string
	// Statement is the query string the statement came from: a Parse
	// message's text, or the whole query string holding a SQL PREPARE.
	Statement   string
	PrepareTime time.Time
	// ParamOIDs are the parameters' type OIDs (regtype[]).
	ParamOIDs []uint32
	// FromSQL: PREPARE made it, not the protocol's Parse.
	FromSQL bool
	// GenericPlans and CustomPlans count the executions that used a plan
	// made without / for the parameter values. sqlgate plans a statement
	// once and runs that plan with each execution's values, so every
	// execution counts as generic (PostgreSQL makes custom plans for the
	// first executions of a statement with parameters).
	GenericPlans, CustomPlans int64
}
