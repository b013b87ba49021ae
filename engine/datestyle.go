package engine

import (
	"github.com/sqlgate/sqlgate/sqlerr"
	"github.com/sqlgate/sqlgate/types"
)

// dateStyleValue is the value SET DateStyle or SET IntervalStyle stores,
// as SHOW and ParameterStatus then give it: DateStyle canonical ("ISO,
// DMY", a lone style or order keeping the current setting's other half),
// IntervalStyle its lower-case name. cur is the setting now in force;
// spelled is the parameter's name as the statement wrote it (PostgreSQL
// names it so in IntervalStyle's error). A value PostgreSQL refuses is
// 22023.
//
// The field order reads dates everywhere text becomes one (literals,
// casts, parameters, COPY FROM); but dates, timestamps and intervals are
// written in the ISO and postgres styles only, so another output style
// is refused (0A000) rather than accepted and then not used.
func dateStyleValue(name, spelled, v, cur string) (string, error) {
	if name == "intervalstyle" {
		st, err := types.ParseIntervalStyle(spelled, v)
		if err != nil {
			return "", err
		}
		if st != types.IntervalPostgres {
			return "", sqlerr.New(sqlerr.FeatureNotSupported, "IntervalStyle %q is not supported: sqlgate writes intervals in the postgres style only", st.String())
		}
		return st.String(), nil
	}
	now, err := types.ParseDateStyle(cur, types.DateStyle{})
	if err != nil {
		now = types.DateStyle{}
	}
	ds, err := types.ParseDateStyle(v, now)
	if err != nil {
		return "", err
	}
	if ds.Output != types.OutputISO {
		return "", sqlerr.New(sqlerr.FeatureNotSupported, "DateStyle %q is not supported: sqlgate writes dates and times in the ISO style only (the field order MDY, DMY or YMD may be set: 'ISO, DMY')", ds.String())
	}
	return ds.String(), nil
}

// dateStyle is the session's DateStyle (ISO, MDY if its setting does not
// read, which SET and defaultSettings prevent).
func (s *session) dateStyle() types.DateStyle {
	ds, err := types.ParseDateStyle(s.setting("datestyle"), types.DateStyle{})
	if err != nil {
		return types.DateStyle{}
	}
	return ds
}
