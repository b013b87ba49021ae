package engine

import (
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
// casts, parameters, COPY FROM); the output style and IntervalStyle
// write them everywhere one becomes text (results, casts, COPY TO:
// types.Style).
func dateStyleValue(name, spelled, v, cur string) (string, error) {
	if name == "intervalstyle" {
		st, err := types.ParseIntervalStyle(spelled, v)
		if err != nil {
			return "", err
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

// style is the session's DateStyle, IntervalStyle and
// extra_float_digits, which write the text of dates, timestamps,
// intervals and floats: parsed when one of them changed (setSetting),
// not when asked.
func (s *session) style() types.Style { return s.parsedStyle }

// Style is style for pgwire, which writes results in it.
func (s *session) Style() types.Style { return s.parsedStyle }

// parseStyle parses the session's style settings (setSetting).
func (s *session) parseStyle() types.Style {
	return types.StyleOf(s.settings["datestyle"], s.settings["intervalstyle"], s.settings["extra_float_digits"])
}
