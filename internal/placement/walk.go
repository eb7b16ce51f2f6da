package placement

import "math/bits"

// Odometer walks the placements of m values below N in rank order,
// recomputing only the values whose digits changed: usually the last one.
// The pattern databases' build walks its blocks with it.
type Odometer struct {
	N, M  int
	dig   [MaxValues]int
	stale int // values from this digit on are out of date
}

// Seek sets the odometer to rank r.
func (o *Odometer) Seek(r int) {
	for i := o.M - 1; i >= 0; i-- {
		radix := o.N - i
		o.dig[i] = r % radix
		r /= radix
	}
	o.stale = 0
}

// Next advances to the following rank (not past the last).
func (o *Odometer) Next() {
	i := o.M - 1
	for ; i > 0 && o.dig[i] == o.N-i-1; i-- {
		o.dig[i] = 0
	}
	o.dig[i]++
	o.stale = min(o.stale, i)
}

// Values brings pos[:M] up to date, with before[i+1] = before[i] | 1<<pos[i]
// (before[0] is 0).
func (o *Odometer) Values(pos []uint8, before *[MaxValues + 1]uint32) {
	for i := o.stale; i < o.M; i++ {
		v := SelectFree(before[i], o.dig[i])
		pos[i] = uint8(v)
		before[i+1] = before[i] | 1<<v
	}
	o.stale = o.M
}

// Ranker ranks and unranks the placements held in keys (RankKey's) of k
// values below n, with tables that make unranking cheap: a multiplication
// for each division and a byte table for selecting a free value.
type Ranker struct {
	n, k int
	// recip[i] is 2^64/(n-i) rounded up: the high word of x*recip[i] is
	// x/(n-i) for every x below 2^64/(n-i) (ranks are below 16! < 2^45),
	// a multiplication instead of a division.
	recip [MaxValues]uint64
	// sel[b][d] is the position of the d-th set bit of byte b.
	sel [256][8]uint8
}

// NewRanker returns the ranker of k values below n.
func NewRanker(n, k int) *Ranker {
	r := &Ranker{n: n, k: k}
	for i := 0; i < k; i++ {
		r.recip[i] = (1<<64-1)/uint64(n-i) + 1 // 0 for radix 1: see div
	}
	for b := range 256 {
		d := 0
		for x := 0; x < 8; x++ {
			if b&(1<<x) != 0 {
				r.sel[b][d] = uint8(x)
				d++
			}
		}
	}
	return r
}

// N is the number of values the placements choose from.
func (r *Ranker) N() int { return r.n }

// Rank is RankKey(key, n, k).
func (r *Ranker) Rank(key uint64) uint64 { return RankKey(key, r.n, r.k) }

// div is x/(n-i).
func (r *Ranker) div(x uint64, i int) uint64 {
	if r.recip[i] == 0 {
		return x
	}
	hi, _ := bits.Mul64(x, r.recip[i])
	return hi
}

// selectFree is SelectFree on 16 values, by table.
func (r *Ranker) selectFree(used uint32, d uint64) int {
	free := ^used & 0xffff
	lo := free & 0xff
	if c := uint64(bits.OnesCount32(lo)); d >= c {
		return 8 + int(r.sel[free>>8][d-c])
	}
	return int(r.sel[lo][d])
}

// Prefix holds the rank of a parent placement digit by digit, so that a
// successor, which differs from it in a few values, is ranked from its
// first changed digit on, and a following rank unranked from its first
// changed digit on: the incremental rank of a search, and of a walk of a
// ranked table in order.
type Prefix struct {
	r    *Ranker
	key  uint64
	x    [MaxValues + 1]uint64 // x[i]: the rank of digits 0..i-1
	used [MaxValues + 1]uint32 // the values on them
	ok   bool                  // x, used and key are set
}

// NewPrefix returns a prefix of r with no parent yet.
func NewPrefix(r *Ranker) Prefix { return Prefix{r: r} }

// Key is the parent's key.
func (p *Prefix) Key() uint64 { return p.key }

// Set makes key the parent.
func (p *Prefix) Set(key uint64) {
	p.key = key
	r := p.r
	for i := 0; i < r.k; i++ {
		v := uint(key>>(4*uint(r.k-1-i))) & 15
		p.x[i+1] = p.x[i]*uint64(r.n-i) + uint64(v) - uint64(bits.OnesCount32(p.used[i]&(1<<v-1)))
		p.used[i+1] = p.used[i] | 1<<v
	}
	p.ok = true
}

// SetRank makes the placement of rank x the parent (unranking it): the
// prefixes' ranks are x's leading digits. The digits it shares with the
// parent before (taking ranks in increasing order, usually all but the
// last few) are kept.
func (p *Prefix) SetRank(x uint64) {
	r := p.r
	i := r.k
	p.x[i] = x
	for ; i > 0; i-- {
		q := r.div(p.x[i], i-1)
		if p.ok && q == p.x[i-1] {
			break // digits 0..i-2 are the parent's
		}
		p.x[i-1] = q
	}
	start := max(i-1, 0)
	key := uint64(0)
	if start > 0 {
		key = p.key >> (4 * uint(r.k-start))
	}
	for i := start; i < r.k; i++ {
		v := r.selectFree(p.used[i], p.x[i+1]-p.x[i]*uint64(r.n-i))
		p.used[i+1] = p.used[i] | 1<<v
		key = key<<4 | uint64(v)
	}
	p.key, p.ok = key, true
}

// Rank ranks q (a placement's key) from the first digit where it differs
// from the parent.
func (p *Prefix) Rank(q uint64) uint64 {
	r := p.r
	d := p.key ^ q
	if d == 0 {
		return p.x[r.k]
	}
	i := r.k - 1 - (63-bits.LeadingZeros64(d))/4
	x, used := p.x[i], p.used[i]
	for ; i < r.k; i++ {
		v := uint(q>>(4*uint(r.k-1-i))) & 15
		x = x*uint64(r.n-i) + uint64(v) - uint64(bits.OnesCount32(used&(1<<v-1)))
		used |= 1 << v
	}
	return x
}
