package sqlerr

// Program limits of class 54 that PostgreSQL names separately from 54000.
const (
	StatementTooComplex Code = "54001" // too many grouping sets
	TooManyColumns      Code = "54011" // CUBE is limited to 12 elements
	TooManyArguments    Code = "54023" // GROUPING must have fewer than 32 arguments
)
