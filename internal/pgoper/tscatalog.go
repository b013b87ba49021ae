// Code generated from PostgreSQL 15 by TestTextSearchCatalogMatchesPostgres; DO NOT EDIT.
// Regenerate: SQLGATE_WRITE_TSCATALOG=1 PGTEST_BIN_DIR=/usr/lib/postgresql/15/bin go test ./internal/pgoper -run TestTextSearchCatalogMatchesPostgres

package pgoper

// tsParsers ... tsProcs are PostgreSQL 15's text search catalog rows of
// what sqlgate's full text search has (tsearch.go).
var tsParsers = []TSParser{
	{3722, "default", 3717, 3718, 3719, 3720, 3721, "default word parser"},
}

var tsTemplates = []TSTemplate{
	{3727, "simple", 3725, 3726, "simple dictionary: just lower case and check for stopword"},
	{3730, "synonym", 3728, 3729, "synonym dictionary: replace word by its synonym"},
	{3733, "ispell", 3731, 3732, "ispell dictionary"},
	{3742, "thesaurus", 3740, 3741, "thesaurus dictionary: phrase by phrase substitution"},
	{13150, "snowball", 13148, 13149, "snowball stemmer"},
}

var tsConfigs = []TSConfig{
	{3748, "simple", 3722, "simple configuration"},
	{13164, "english", 3722, "configuration for english language"},
}

var tsConfigMaps = []TSConfigMap{
	{3748, 1, 1, 3765},
	{3748, 2, 1, 3765},
	{3748, 3, 1, 3765},
	{3748, 4, 1, 3765},
	{3748, 5, 1, 3765},
	{3748, 6, 1, 3765},
	{3748, 7, 1, 3765},
	{3748, 8, 1, 3765},
	{3748, 9, 1, 3765},
	{3748, 10, 1, 3765},
	{3748, 11, 1, 3765},
	{3748, 15, 1, 3765},
	{3748, 16, 1, 3765},
	{3748, 17, 1, 3765},
	{3748, 18, 1, 3765},
	{3748, 19, 1, 3765},
	{3748, 20, 1, 3765},
	{3748, 21, 1, 3765},
	{3748, 22, 1, 3765},
	{13164, 1, 1, 13163},
	{13164, 2, 1, 13163},
	{13164, 3, 1, 3765},
	{13164, 4, 1, 3765},
	{13164, 5, 1, 3765},
	{13164, 6, 1, 3765},
	{13164, 7, 1, 3765},
	{13164, 8, 1, 3765},
	{13164, 9, 1, 3765},
	{13164, 10, 1, 13163},
	{13164, 11, 1, 13163},
	{13164, 15, 1, 3765},
	{13164, 16, 1, 13163},
	{13164, 17, 1, 13163},
	{13164, 18, 1, 3765},
	{13164, 19, 1, 3765},
	{13164, 20, 1, 3765},
	{13164, 21, 1, 3765},
	{13164, 22, 1, 3765},
}

var tsDicts = []TSDict{
	{3765, "simple", 3727, "", "simple dictionary: just lower case and check for stopword"},
	{13163, "english_stem", 13150, "language = 'english', stopwords = 'english'", "snowball stemmer for english language"},
}

var tsProcs = []SupportProc{
	{3717, "prsd_start", []uint32{0x8e9, 0x17}, 2281, "(internal)"},
	{3718, "prsd_nexttoken", []uint32{0x8e9, 0x8e9, 0x8e9}, 2281, "(internal)"},
	{3719, "prsd_end", []uint32{0x8e9}, 2278, "(internal)"},
	{3720, "prsd_headline", []uint32{0x8e9, 0x8e9, 0xe1f}, 2281, "(internal)"},
	{3721, "prsd_lextype", []uint32{0x8e9}, 2281, "(internal)"},
	{3725, "dsimple_init", []uint32{0x8e9}, 2281, "(internal)"},
	{3726, "dsimple_lexize", []uint32{0x8e9, 0x8e9, 0x8e9, 0x8e9}, 2281, "(internal)"},
	{3728, "dsynonym_init", []uint32{0x8e9}, 2281, "(internal)"},
	{3729, "dsynonym_lexize", []uint32{0x8e9, 0x8e9, 0x8e9, 0x8e9}, 2281, "(internal)"},
	{3731, "dispell_init", []uint32{0x8e9}, 2281, "(internal)"},
	{3732, "dispell_lexize", []uint32{0x8e9, 0x8e9, 0x8e9, 0x8e9}, 2281, "(internal)"},
	{3740, "thesaurus_init", []uint32{0x8e9}, 2281, "(internal)"},
	{3741, "thesaurus_lexize", []uint32{0x8e9, 0x8e9, 0x8e9, 0x8e9}, 2281, "(internal)"},
	{13148, "dsnowball_init", []uint32{0x8e9}, 2281, ""},
	{13149, "dsnowball_lexize", []uint32{0x8e9, 0x8e9, 0x8e9, 0x8e9}, 2281, ""},
}
