package embedded

// skipBefore returns a logScan's skip function for a changelog scan bounded
// below by a log offset and a commit time (Unix microseconds; 0 = no
// bound), or nil without bounds. It reads only the header of the batch at
// the scan's position: a batch whose every change lies below the offset
// (its next offset is at most the bound) or was committed before the time
// (all of a batch's changes share its commit timestamp, in milliseconds)
// is stepped over without reading or decoding its records.
//
// Offsets grow within a bucket, so once a bucket passes the offset bound
// no later batch of it is skipped for that reason; commit times need not
// grow (a clock may step back), so each batch's own time decides.
func skipBefore(fromOffset, fromMicros int64) func(*logScan) (int64, error) {
	if fromOffset <= 0 && fromMicros <= 0 {
		return nil
	}
	return func(s *logScan) (int64, error) {
		h, err := s.r.header(s.off)
		if err != nil {
			return 0, nil // reading the batch reports the damage
		}
		if fromOffset > 0 && h.NextOffset() <= fromOffset {
			return h.Size(), nil
		}
		if fromMicros > 0 && h.CommitTimestamp*1000 < fromMicros {
			return h.Size(), nil
		}
		return 0, nil
	}
}
