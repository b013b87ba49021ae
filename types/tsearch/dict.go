package tsearch

import "github.com/sqlgate/sqlgate/sqlerr"

// The text search dictionaries sqlgate has: PostgreSQL's simple (the
// token lower-cased, no stop words) and english_stem (the Snowball
// english stemmer over english.stop), what ts_lexize and ts_debug name.

// Dictionary is a text search dictionary.
type Dictionary struct{ d dictionary }

// dictNames are the dictionaries' names in pg_ts_dict.
var dictNames = map[dictionary]string{dictSimple: "simple", dictEnglishStem: "english_stem"}

// Name is the dictionary's name as regdictionary prints it.
func (d Dictionary) Name() string { return dictNames[d.d] }

// LookupDictionary finds a dictionary by name, as regdictionary's input
// does (an optional pg_catalog. qualification, case folded when
// unquoted); 42704 for one there is not.
func LookupDictionary(name string) (Dictionary, error) {
	n, qualified := catalogName(name)
	for d, dn := range dictNames {
		if dn == n {
			return Dictionary{d}, nil
		}
	}
	return Dictionary{}, sqlerr.New(sqlerr.UndefinedObject, "text search dictionary \"%s\" does not exist", qualified)
}

// Lexize is ts_lexize: the lexemes the dictionary makes of word (none
// for a stop word or an empty word). Both dictionaries recognise every word, so the
// result is never PostgreSQL's NULL.
func (d Dictionary) Lexize(word string) []string {
	c := Config{}
	c.dict[TokAsciiWord] = d.d
	lex, stop, _ := c.lexize(TokAsciiWord, word)
	if stop || lex == "" {
		return []string{}
	}
	return []string{lex}
}

// Dictionaries are the dictionaries the configuration sends a token type
// to, in order (pg_ts_config_map): none for the types it skips.
func (c *Config) Dictionaries(tokType int) []Dictionary {
	if tokType <= 0 || tokType >= len(c.dict) || c.dict[tokType] == dictNone {
		return nil
	}
	return []Dictionary{{c.dict[tokType]}}
}
