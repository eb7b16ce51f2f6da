package gapdb

import (
	"encoding/binary"
	"runtime"

	"github.com/gapset/gapset/internal/safe"
)

// A filter holds, for every pattern of the projection's last f cells, the
// smallest table entry over the patterns extending it: a lower bound of
// every such entry, one nibble each, indexed by the f cells' tiles read as
// a number (a pattern's low 4f bits). It is what the key-set chains' small
// dense tables were (a level projected again onto fewer cells), for every
// level at once.

// nibble is entry m of a filter.
func nibble(f []byte, m uint64) uint16 { return uint16(f[m>>1]>>(4*(m&1))) & 15 }

// lower stores v as entry m of a filter where v is smaller.
func lower(f []byte, m uint64, v uint16) {
	if nibble(f, m) > v {
		sh := 4 * (m & 1)
		f[m>>1] = f[m>>1]&^(15<<sh) | byte(v)<<sh
	}
}

// newFilter is the filter of f cells of a header, every entry "above":
// Levels, and with both levels ResLevels in the odd nibbles.
func newFilter(f int, h *Header) []byte {
	b := make([]byte, filterLen(f, h.Both()))
	hi := h.Levels
	if h.Both() {
		hi = h.ResLevels
	}
	for i := range b {
		b[i] = byte(h.Levels) | byte(hi)<<4
	}
	return b
}

// scan walks a table's entries once, on all cores: it counts them by value
// and computes the filter of f cells from them (nil for f = 0), the checks
// of verify, independent of the build's per-key minimum. The placements
// are walked in rank order (values as a number, the first cell most
// significant), the last f values of each giving its filter entry; the
// cores share the subtrees of the first value, each with its own filter,
// merged by the minimum. With both levels each field is counted (counts,
// res) and filtered on its own.
func scan(table []byte, h *Header) (filter []byte, counts, res [16]uint64) {
	n, k, f := h.Rows*h.Cols, len(h.Cells), h.FilterCells
	sub := entries(n-1, k-1) // placements after one first value
	workers := min(runtime.GOMAXPROCS(0), n)
	parts := make([]scanner, workers)
	var g safe.Group
	for w := range workers {
		g.Go(func() {
			s := &parts[w]
			s.table, s.n, s.k, s.f, s.mask = table, n, k, f, uint16(1)<<h.Bits-1
			s.bits, s.both = uint64(h.Bits), h.Both()
			s.gbits, s.gmask = uint(h.GapBits()), uint16(1)<<h.GapBits()-1
			if f > 0 {
				s.filter = newFilter(f, h)
			}
			for v0 := w; v0 < n; v0 += workers {
				s.x = uint64(v0) * sub
				s.walk(0, 0, 0, v0)
			}
		})
	}
	g.Wait()
	filter = parts[0].filter
	for _, s := range parts {
		for v := range s.counts {
			counts[v] += s.counts[v]
			res[v] += s.res[v]
		}
		for m := uint64(0); m < 2*uint64(len(filter)); m++ {
			lower(filter, m, nibble(s.filter, m))
		}
	}
	return filter, counts, res
}

// scanner is one core's share of scan.
type scanner struct {
	table   []byte
	n, k, f int
	bits    uint64
	mask    uint16
	both    bool
	gbits   uint   // both: the gap level's bits, below the residual's
	gmask   uint16 // both: 1<<gbits - 1
	x       uint64 // the next entry's rank
	filter  []byte
	counts  [16]uint64
	res     [16]uint64 // both: the residual levels' counts
}

// walk visits the placements that put value only at position i (and the
// values of used before it), low holding the values from position k-f on.
func (s *scanner) walk(i int, used uint32, low uint64, only int) {
	for v := 0; v < s.n; v++ {
		if used&(1<<v) != 0 || only >= 0 && v != only {
			continue
		}
		l := low
		if i >= s.k-s.f {
			l = low<<4 | uint64(v)
		}
		if i < s.k-1 {
			s.walk(i+1, used|1<<v, l, -1)
			continue
		}
		bit := s.x * s.bits
		e := binary.LittleEndian.Uint16(s.table[bit>>3:]) >> (bit & 7) & s.mask
		s.x++
		if s.both {
			g, r := e&s.gmask, e>>s.gbits
			s.counts[g]++
			s.res[r]++
			if s.filter != nil {
				lower(s.filter, 2*l, g)
				lower(s.filter, 2*l+1, r)
			}
			continue
		}
		s.counts[e]++
		if s.filter != nil {
			lower(s.filter, l, e)
		}
	}
}
