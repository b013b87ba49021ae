package pgoper

// defaultClassTypes are PostgreSQL 15's default operator classes of the
// gist, gin, spgist and brin access methods, as (method, input type)
// pairs: whether CREATE INDEX ... USING such a method has a class for a
// key of no explicit class. The classes themselves (opclasses.go) are
// listed only for the families all of whose operators sqlgate binds, so
// a class can be PostgreSQL's and absent there (gin's tsvector_ops: @@@).
// TestDefaultClassTypesMatchPostgres checks the list against PostgreSQL.
var defaultClassTypes = map[[2]uint32]bool{
	{783, 600}:   true, // gist point_ops
	{783, 603}:   true, // gist box_ops
	{783, 604}:   true, // gist poly_ops
	{783, 718}:   true, // gist circle_ops
	{783, 3614}:  true, // gist tsvector_ops
	{783, 3615}:  true, // gist tsquery_ops
	{783, 3831}:  true, // gist range_ops
	{783, 4537}:  true, // gist multirange_ops
	{2742, 2277}: true, // gin array_ops
	{2742, 3614}: true, // gin tsvector_ops
	{2742, 3802}: true, // gin jsonb_ops
	{3580, 17}:   true, // brin bytea_minmax_ops
	{3580, 18}:   true, // brin char_minmax_ops
	{3580, 19}:   true, // brin name_minmax_ops
	{3580, 20}:   true, // brin int8_minmax_ops
	{3580, 21}:   true, // brin int2_minmax_ops
	{3580, 23}:   true, // brin int4_minmax_ops
	{3580, 25}:   true, // brin text_minmax_ops
	{3580, 26}:   true, // brin oid_minmax_ops
	{3580, 27}:   true, // brin tid_minmax_ops
	{3580, 603}:  true, // brin box_inclusion_ops
	{3580, 700}:  true, // brin float4_minmax_ops
	{3580, 701}:  true, // brin float8_minmax_ops
	{3580, 774}:  true, // brin macaddr8_minmax_ops
	{3580, 829}:  true, // brin macaddr_minmax_ops
	{3580, 869}:  true, // brin inet_inclusion_ops
	{3580, 1042}: true, // brin bpchar_minmax_ops
	{3580, 1082}: true, // brin date_minmax_ops
	{3580, 1083}: true, // brin time_minmax_ops
	{3580, 1114}: true, // brin timestamp_minmax_ops
	{3580, 1184}: true, // brin timestamptz_minmax_ops
	{3580, 1186}: true, // brin interval_minmax_ops
	{3580, 1266}: true, // brin timetz_minmax_ops
	{3580, 1560}: true, // brin bit_minmax_ops
	{3580, 1562}: true, // brin varbit_minmax_ops
	{3580, 1700}: true, // brin numeric_minmax_ops
	{3580, 2950}: true, // brin uuid_minmax_ops
	{3580, 3220}: true, // brin pg_lsn_minmax_ops
	{3580, 3831}: true, // brin range_inclusion_ops
	{4000, 25}:   true, // spgist text_ops
	{4000, 600}:  true, // spgist quad_point_ops
	{4000, 603}:  true, // spgist box_ops
	{4000, 604}:  true, // spgist poly_ops
	{4000, 869}:  true, // spgist inet_ops
	{4000, 3831}: true, // spgist range_ops
}

// HasDefaultClass reports whether PostgreSQL 15 has a default operator
// class of the gist, gin, spgist or brin access method for input type typ
// (a polymorphic family's: anyarray, anyrange ... as poly), listed in
// opclasses.go or not.
func HasDefaultClass(method, typ, poly uint32) bool {
	return defaultClassTypes[[2]uint32{method, typ}] || (poly != 0 && defaultClassTypes[[2]uint32{method, poly}])
}

// DefaultClassPairs lists defaultClassTypes' pairs (for its test).
func DefaultClassPairs() [][2]uint32 {
	out := make([][2]uint32, 0, len(defaultClassTypes))
	for k := range defaultClassTypes {
		out = append(out, k)
	}
	return out
}
