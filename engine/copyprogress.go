package engine

import "github.com/sqlgate/sqlgate/pgwire"

// CopyProgress is where a COPY the engine runs itself (from or to a file
// on the server) reports its progress for pg_stat_progress_copy: the
// server's session registry (activity.Registry). COPY FROM STDIN and TO
// STDOUT are reported by pgwire instead, which sees their bytes.
type CopyProgress interface {
	// StartFileCopy registers a COPY of session pid on relation relOID
	// (command "COPY FROM" or "COPY TO", typ "FILE" or "PROGRAM";
	// bytesTotal the file's size, 0 when unknown).
	StartFileCopy(pid int32, relOID uint32, command, typ string, bytesTotal int64) pgwire.CopyProgress
}

// startCopyProgress reports a file COPY of this session (Options.
// CopyProgress): Add bytes and rows as they go, Done at the end. Without
// a registry it counts nothing.
func (s *session) startCopyProgress(relOID uint32, from bool, typ string, bytesTotal int64) pgwire.CopyProgress {
	if s.eng.opts.CopyProgress == nil {
		return pgwire.NoProgress{}
	}
	cmd := "COPY TO"
	if from {
		cmd = "COPY FROM"
	}
	return s.eng.opts.CopyProgress.StartFileCopy(int32(s.info.ProcessID), relOID, cmd, typ, bytesTotal)
}
