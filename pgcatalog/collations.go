package pgcatalog

import (
	"github.com/sqlgate/sqlgate/functions"
	"github.com/sqlgate/sqlgate/internal/pgoper"
)

// The collations and text search objects sqlgate has, which regcollation,
// regconfig and regdictionary name (functions/regcollation.go,
// internal/pgoper's tscatalog.go): pg_collation, pg_ts_parser,
// pg_ts_template, pg_ts_config, pg_ts_config_map and pg_ts_dict rows and
// their comments in pg_description, as PostgreSQL 15's. The parser's and
// templates' functions (prsd_start, dsnowball_lexize ...) are pg_proc rows
// under PostgreSQL's OIDs, which the regproc columns name; sqlgate does
// not bind a call of them (they take internal).

// pg_description.classoid of collations and the text search objects.
const (
	classPgCollation  = 3456
	classPgTSDict     = 3600
	classPgTSParser   = 3601
	classPgTSConfig   = 3602
	classPgTSTemplate = 3764
)

func tsParserRows() []row {
	var rows []row
	for _, p := range pgoper.TSParsers() {
		rows = append(rows, row{"oid": p.OID, "prsname": p.Name, "prsnamespace": nsPgCatalog, "prsstart": p.Start, "prstoken": p.Token,
			"prsend": p.End, "prsheadline": p.Headline, "prslextype": p.LexType})
	}
	return rows
}

func tsTemplateRows() []row {
	var rows []row
	for _, t := range pgoper.TSTemplates() {
		rows = append(rows, row{"oid": t.OID, "tmplname": t.Name, "tmplnamespace": nsPgCatalog, "tmplinit": t.Init, "tmpllexize": t.Lexize})
	}
	return rows
}

func tsConfigRows() []row {
	var rows []row
	for _, c := range pgoper.TSConfigs() {
		rows = append(rows, row{"oid": c.OID, "cfgname": c.Name, "cfgnamespace": nsPgCatalog, "cfgowner": ownerOID, "cfgparser": c.Parser})
	}
	return rows
}

func tsConfigMapRows() []row {
	var rows []row
	for _, m := range pgoper.TSConfigMaps() {
		rows = append(rows, row{"mapcfg": m.Config, "maptokentype": int(m.TokenType), "mapseqno": int(m.SeqNo), "mapdict": m.Dict})
	}
	return rows
}

func collationRows() []row {
	var rows []row
	for _, c := range functions.Collations() {
		var collate any // NULL: the default collation's
		if c.Collate != "" {
			collate = c.Collate
		}
		rows = append(rows, row{"oid": c.OID, "collname": c.Name, "collnamespace": nsPgCatalog, "collowner": ownerOID,
			"collprovider": string(c.Provider), "collisdeterministic": true, "collencoding": int(c.Encoding),
			"collcollate": collate, "collctype": collate})
	}
	return rows
}

func tsDictRows() []row {
	var rows []row
	for _, d := range functions.Dictionaries() {
		var opt any
		if d.InitOption != "" {
			opt = d.InitOption
		}
		rows = append(rows, row{"oid": d.OID, "dictname": d.Name, "dictnamespace": nsPgCatalog, "dictowner": ownerOID,
			"dicttemplate": d.Template, "dictinitoption": opt})
	}
	return rows
}

func collationDescriptionRows() []row {
	var rows []row
	add := func(oid, class uint32, text string) {
		if text != "" {
			rows = append(rows, row{"objoid": oid, "classoid": class, "objsubid": 0, "description": text})
		}
	}
	for _, c := range functions.Collations() {
		add(c.OID, classPgCollation, c.Comment)
	}
	for _, d := range functions.Dictionaries() {
		add(d.OID, classPgTSDict, d.Comment)
	}
	for _, p := range pgoper.TSParsers() {
		add(p.OID, classPgTSParser, p.Comment)
	}
	for _, t := range pgoper.TSTemplates() {
		add(t.OID, classPgTSTemplate, t.Comment)
	}
	for _, c := range pgoper.TSConfigs() {
		add(c.OID, classPgTSConfig, c.Comment)
	}
	return rows
}
