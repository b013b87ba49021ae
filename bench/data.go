package main

import (
	"strconv"
	"time"
)

// The data set is a pure function of the row id, so that every system gets
// exactly the same rows, any row can be recomputed to check an answer, and
// the expected checksums of the streaming workloads need no database.

// usersCount is the size of the users table (W7) and the range of user_id.
const usersCount = 100_000

// tsBase is the first row's timestamp (TIMESTAMP without time zone; held as
// a UTC time.Time, which pgx and duckdb-go both send as wall-clock time).
var tsBase = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// countries are the values of users.country, the W7 GROUP BY column.
var countries = [...]string{
	"AR", "AU", "BR", "CA", "CN", "DE", "EG", "ES", "FR", "GB",
	"ID", "IN", "IT", "JP", "KR", "MX", "NG", "RU", "US", "ZA",
}

// eventRow is one row of the events table. Amount is NULL when !AmountValid.
type eventRow struct {
	ID          int64
	UserID      int32
	Amount      float64
	AmountValid bool
	Qty         int32
	Name        string
	TS          time.Time
}

// splitmix64 is a fast, well-mixed hash; successive seeds give independent
// looking values for the different columns.
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// makeEvent computes row id (ids run from 1 to N).
func makeEvent(id int64) eventRow {
	h1 := splitmix64(uint64(id))
	h2 := splitmix64(h1)
	h3 := splitmix64(h2)
	r := eventRow{
		ID:     id,
		UserID: int32(h1%usersCount) + 1,
		Qty:    int32(h2%50) + 1,
		// Names of 6 to 18 characters so that the text column is not constant width.
		Name: "n" + strconv.FormatUint(h3>>(h3%40), 36),
		TS:   tsBase.Add(time.Duration(id)*time.Second + time.Duration((h3>>20)%1_000_000)*time.Microsecond),
	}
	// 1% NULL amounts; the rest have two decimals, 0.00 .. 9999.99.
	if (h1>>20)%100 != 0 {
		r.Amount = float64((h2>>16)%1_000_000) / 100
		r.AmountValid = true
	}
	return r
}

// userRow is one row of the users table.
type userRow struct {
	UserID  int32
	Country string
	Tier    int32
}

func makeUser(id int32) userRow {
	h := splitmix64(uint64(id) ^ 0x5bd1e995)
	return userRow{UserID: id, Country: countries[h%uint64(len(countries))], Tier: int32((h >> 8) % 5)}
}

// values returns the row in table column order, with nil for NULL.
func (r eventRow) values() []any {
	var amount any
	if r.AmountValid {
		amount = r.Amount
	}
	return []any{r.ID, r.UserID, amount, r.Qty, r.Name, r.TS}
}

// streamSum is an order-independent checksum of a streamed result, used to
// check W2 and W3 answers without holding the rows.
type streamSum struct {
	Rows      int64
	SumID     int64
	SumUser   int64
	SumQty    int64
	NullFloat int64   // NULL amounts (W2) or NULL expression values (W3)
	SumFloat  float64 // sum of amount (W2) or of amount*2+qty (W3)
	NameHash  uint64  // sum of per-name hashes
	SumTSUsec int64
}

// nameHash is FNV-1a, summed over rows so that order does not matter.
func nameHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// nameHashBytes is nameHash of a string's bytes.
func nameHashBytes(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

func (s *streamSum) addEvent(r eventRow) {
	s.Rows++
	s.SumID += r.ID
	s.SumUser += int64(r.UserID)
	s.SumQty += int64(r.Qty)
	if r.AmountValid {
		s.SumFloat += r.Amount
	} else {
		s.NullFloat++
	}
	s.NameHash += nameHash(r.Name)
	s.SumTSUsec += r.TS.UnixMicro()
}

// addProjected adds one row of W3's answer (id, amount * 2 + qty).
func (s *streamSum) addProjected(id int64, v float64, valid bool) {
	s.Rows++
	s.SumID += id
	if valid {
		s.SumFloat += v
	} else {
		s.NullFloat++
	}
}

// expectedSums computes the answers of W2 (SELECT *) and W3 from the
// generator alone.
func expectedSums(n int64) (all, projected streamSum) {
	for id := int64(1); id <= n; id++ {
		r := makeEvent(id)
		all.addEvent(r)
		if r.Qty >= 20 {
			projected.addProjected(id, r.Amount*2+float64(r.Qty), r.AmountValid)
		}
	}
	return all, projected
}

// equal compares two checksums, the float sums with a relative tolerance
// because the summation order differs between systems.
func (s streamSum) equal(o streamSum) bool {
	return s.Rows == o.Rows && s.SumID == o.SumID && s.SumUser == o.SumUser && s.SumQty == o.SumQty &&
		s.NullFloat == o.NullFloat && s.NameHash == o.NameHash && s.SumTSUsec == o.SumTSUsec &&
		floatClose(s.SumFloat, o.SumFloat)
}
