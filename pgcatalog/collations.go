package pgcatalog

import "github.com/sqlgate/sqlgate/functions"

// The collations and text search dictionaries sqlgate has, which
// regcollation and regdictionary name (functions/regcollation.go):
// pg_collation and pg_ts_dict rows and their comments in pg_description,
// as PostgreSQL 15's. pg_ts_template stays empty: its init and lexize
// functions are PostgreSQL's C code, which sqlgate's Go dictionaries
// have no pg_proc rows for.

// pg_description.classoid of collations, dictionaries and templates.
const (
	classPgCollation = 3456
	classPgTSDict    = 3600
)

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
	return rows
}
