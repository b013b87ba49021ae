package engine

// Transactional settings: PostgreSQL's GUC stack (guc.c push_old_value and
// AtEOXact_GUC), which makes SET undone by ROLLBACK and by ROLLBACK TO a
// savepoint set before it, and SET LOCAL last to the end of its
// transaction whichever way it ends. Each setting changed inside a
// transaction keeps a stack of its values saved at each nesting level
// (1: the transaction block or the implicit transaction of a Query string
// or pipeline; 2 and up: its savepoints). A SET outside any transaction
// commits at once and saves nothing. The transaction's own modes
// (transaction_isolation and the other transaction_* settings) are not
// saved: BEGIN sets them and the end of the block resets them.

import "strings"

// savedState is what a level did to a setting (guc.c's GucStackState).
type savedState uint8

const (
	// savedSet: SET at this level; a commit keeps the value.
	savedSet savedState = iota
	// savedLocal: SET LOCAL at this level; the end restores prior.
	savedLocal
	// savedSetLocal: SET then SET LOCAL: a commit restores masked, the
	// value the SET gave.
	savedSetLocal
)

// savedSetting is one level's saved values of a setting.
type savedSetting struct {
	level  int
	state  savedState
	prior  string // the value before this level changed it
	masked string // savedSetLocal: the SET's value under the SET LOCAL
}

// settingStack holds the saved values of the settings a transaction
// changed, by name, innermost level last.
type settingStack map[string][]savedSetting

// settingLevel is the nesting level a SET now runs at: 0 outside any
// transaction (the SET commits at once).
func (s *session) settingLevel() int {
	switch {
	case s.tx != nil:
		return 1 + s.tx.Savepoints()
	case s.held:
		return 1
	}
	return 0
}

// transactional reports whether a setting follows its transaction: the
// transaction's isolation level does not (BEGIN and SET TRANSACTION set
// it, the block's end resets it); its access mode and deferrability do
// within it (ROLLBACK TO undoes a SET TRANSACTION READ ONLY), and the end
// of the block resets them (transactionMode).
func transactional(name string) bool {
	return name != "transaction_isolation"
}

// transactionMode reports a setting that the end of its block resets
// rather than restores (txcontrol.go's setTransactionModes).
func transactionMode(name string) bool {
	return strings.HasPrefix(name, "transaction_")
}

// changeSetting gives setting name the value v for the session (local
// false: SET) or for the rest of the transaction (SET LOCAL), saving the
// value it replaces at the current level. Outside a transaction a SET
// LOCAL changes nothing: it would end with its own statement.
func (s *session) changeSetting(name, v string, local bool) {
	level := s.settingLevel()
	if level == 0 || !transactional(name) {
		if !local || !transactional(name) {
			s.putSetting(name, v)
		}
		return
	}
	if s.savedSettings == nil {
		s.savedSettings = settingStack{}
	}
	stack := s.savedSettings[name]
	if n := len(stack); n > 0 && stack[n-1].level >= level {
		top := &stack[n-1]
		switch {
		case !local:
			top.state, top.masked = savedSet, "" // SET overrides what this level did
		case top.state == savedSet:
			top.state, top.masked = savedSetLocal, s.settings[name]
		}
	} else {
		state := savedSet
		if local {
			state = savedLocal
		}
		s.savedSettings[name] = append(stack, savedSetting{level: level, state: state, prior: s.settings[name]})
	}
	s.putSetting(name, v)
}

// putSetting sets a value and reports it to the client when it is one of
// the settings PostgreSQL reports (ParameterStatus).
func (s *session) putSetting(name, v string) {
	if s.settings[name] == v {
		return
	}
	s.setSetting(name, v)
	if reported[name] {
		s.changed[displayName(name)] = v
	}
}

// endSettingLevels ends the levels from down to to (from >= to >= 1) of
// the saved settings, innermost first, as their subtransactions or the
// transaction (level 1) commit or abort: an abort restores each level's
// prior value; a commit of the transaction keeps a SET's value and undoes
// a SET LOCAL; a commit of a savepoint (RELEASE) merges its level into the
// one below (AtEOXact_GUC).
func (s *session) endSettingLevels(commit bool, from, to int) {
	if len(s.savedSettings) == 0 {
		return
	}
	for level := from; level >= to; level-- {
		for name, stack := range s.savedSettings {
			if stack = s.endSettingLevel(name, stack, commit, level); len(stack) == 0 {
				delete(s.savedSettings, name)
			} else {
				s.savedSettings[name] = stack
			}
		}
	}
}

// endSettingLevel ends level for one setting's stack and returns the
// stack left.
func (s *session) endSettingLevel(name string, stack []savedSetting, commit bool, level int) []savedSetting {
	n := len(stack)
	if n == 0 || stack[n-1].level < level {
		return stack
	}
	top := stack[n-1]
	switch {
	case level == 1 && transactionMode(name):
		// the block's end sets the session's defaults
	case !commit:
		s.putSetting(name, top.prior)
	case level == 1:
		switch top.state {
		case savedSetLocal:
			s.putSetting(name, top.masked)
		case savedLocal:
			s.putSetting(name, top.prior)
		}
	case n == 1 || stack[n-2].level < level-1:
		// Nothing saved at the level below: this level's entry becomes
		// that level's.
		stack[n-1].level--
		return stack
	default:
		prev := &stack[n-2]
		switch top.state {
		case savedSet:
			prev.state, prev.masked = savedSet, ""
		case savedLocal:
			if prev.state == savedSet {
				// The SET LOCAL moves down: the level below's SET value
				// is what it masks.
				prev.state, prev.masked = savedSetLocal, top.prior
			}
		case savedSetLocal:
			prev.state, prev.masked = savedSetLocal, top.masked
		}
	}
	return stack[:n-1]
}
