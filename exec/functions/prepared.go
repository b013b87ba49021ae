package functions

import "time"

// PreparedStatement is one row of pg_prepared_statements: a statement the
// session prepared with SQL's PREPARE or the protocol's Parse, as
// PostgreSQL 15 describes it (pgwire.PreparedInfo says what each field
// holds).
type PreparedStatement struct {
	Name                      string
	Statement                 string
	PrepareTime               time.Time
	ParamOIDs                 []uint32
	FromSQL                   bool
	GenericPlans, CustomPlans int64
}
