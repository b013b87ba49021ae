package embedded

// BlockCacheStats reports the cumulative hits and misses of the block
// cache of primary-key state (the server's metrics read it at scrape).
func (s *Store) BlockCacheStats() (hits, misses int64) {
	if s.db == nil {
		return 0, 0
	}
	m := s.db.Metrics()
	return m.BlockCache.Hits, m.BlockCache.Misses
}
