package server

import (
	"time"

	"github.com/sqlgate/sqlgate/engine"
	"github.com/sqlgate/sqlgate/pgwire"
	"github.com/sqlgate/sqlgate/sqlerr"
)

// observers tells several pgwire.Observers (the session registry, the
// metrics, the statement log) of every session, in order.
type observers []pgwire.Observer

func (os observers) SessionStarted(info pgwire.SessionInfo, ctl pgwire.SessionControl) pgwire.SessionObserver {
	var ss sessionObservers
	for _, o := range os {
		if so := o.SessionStarted(info, ctl); so != nil {
			ss = append(ss, so)
		}
	}
	return ss
}

type sessionObservers []pgwire.SessionObserver

func (ss sessionObservers) StatementStarted(sql string, at time.Time) {
	for _, s := range ss {
		s.StatementStarted(sql, at)
	}
}

func (ss sessionObservers) StatementDone(ev pgwire.StatementEvent) {
	for _, s := range ss {
		s.StatementDone(ev)
	}
}

func (ss sessionObservers) ErrorSent(e *sqlerr.Error, sql string) {
	for _, s := range ss {
		s.ErrorSent(e, sql)
	}
}

func (ss sessionObservers) StatusChanged(name, value string) {
	for _, s := range ss {
		s.StatusChanged(name, value)
	}
}

func (ss sessionObservers) Ready(txStatus byte) {
	for _, s := range ss {
		s.Ready(txStatus)
	}
}

func (ss sessionObservers) Ended() {
	for _, s := range ss {
		s.Ended()
	}
}

// CopyStarted implements pgwire.CopyObserver for those that are.
func (ss sessionObservers) CopyStarted(from bool, relOID uint32) pgwire.CopyProgress {
	var ps copyProgresses
	for _, s := range ss {
		if co, ok := s.(pgwire.CopyObserver); ok {
			if p := co.CopyStarted(from, relOID); p != nil {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

type copyProgresses []pgwire.CopyProgress

func (ps copyProgresses) Add(bytes, tuples int64) {
	for _, p := range ps {
		p.Add(bytes, tuples)
	}
}

func (ps copyProgresses) Done() {
	for _, p := range ps {
		p.Done()
	}
}

// serverSettings are the session settings' server defaults the
// configuration sets (engine.Options.Settings), checked as SET checks
// them.
func serverSettings(cfg Config) (map[string]string, error) {
	s := map[string]string{}
	if cfg.LogMinDurationStatement != "" {
		ms, err := engine.ParseMillisSetting(engine.LogMinDurationStatement, cfg.LogMinDurationStatement)
		if err != nil {
			return nil, err
		}
		s[engine.LogMinDurationStatement] = engine.FormatMillisSetting(ms)
	}
	return s, nil
}
