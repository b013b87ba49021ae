// Package tsearch is PostgreSQL 15's full text search: the tsvector and
// tsquery values (their text and binary forms, vector.go and query.go),
// the default parser's tokens (parser.go, wparser_def.c's state machine),
// the simple and english configurations (config.go: the english one
// stems with Snowball's english stemmer and drops PostgreSQL's english
// stop words, english.stop, a copy of PostgreSQL 15's
// src/backend/snowball/stopwords/english.stop) and their dictionaries,
// simple and english_stem (dict.go: ts_lexize, and the dictionaries a
// configuration maps a token type to, for ts_debug), to_tsvector and the
// to_tsquery family, @@ (match.go: TS_execute with phrase positions, over
// any source of operands), ts_rank (rank.go) and ts_rank_cd (rankcd.go:
// covers), PostgreSQL's formulas in float4, and ts_headline (headline.go:
// its options, wparser_def.c's fragment selection, generateHeadline).
//
// Values travel through sqlgate as their canonical text (types.TSVector
// and types.TSQuery are Variants of STRING); every function here reads
// that text and prints its result the way PostgreSQL's output functions
// do. It imports nothing of sqlgate's but sqlerr.
package tsearch
