package bdd

import (
	"errors"
	"fmt"
	"math/bits"
)

// The building table holds the nodes level by level. A node is its two
// child references (8 bytes: the level is the array's); a reference packs
// the child's level in its top 6 bits and its index within that level in
// the low 26 bits. References 0 and 1 are the terminals False and True:
// level 0 (which holds only the root) starts its indices at 2. Each level's
// nodes sit in fixed-size chunks, so growing never copies them, and each
// level has its own open-addressing index of 4-byte slots (the node's
// index + 1 in the low 26 bits, 6 bits of its hash above, so that a probe
// rarely reads a node that does not match). At most 4/5 of the slots are
// used and a full index grows by a third: 8 + 4/0.6 = 14.7 bytes per node
// at the worst point, about 13.8 on average over the levels, against 20-32
// for one global table of 12-byte nodes whose slice doubles.
const (
	idxBits   = 26
	idxMask   = 1<<idxBits - 1
	chunkBits = 16 // nodes per chunk: 2^16, 512 KiB
	chunkSize = 1 << chunkBits
	// MaxLevelNodes is the most nodes one level of a diagram can hold while
	// building (the index + 1 must fit in 26 bits).
	MaxLevelNodes = idxMask - 1
)

// ErrLevelFull marks a diagram with a level wider than MaxLevelNodes: the
// set is too big for the builder (the exact Gap6_10 of the 4x4 board is).
var ErrLevelFull = errors.New("set too big for a BDD")

// maxLevelIndex is the largest index a level may use (a variable so that
// the tests can reach it).
var maxLevelIndex uint32 = MaxLevelNodes

func mkRef(level int, i uint32) uint32 { return uint32(level)<<idxBits | i }
func refLevel(r uint32) int            { return int(r >> idxBits) }
func refIndex(r uint32) uint32         { return r & idxMask }

// pair is a node's children.
type pair struct{ lo, hi uint32 }

// levelNodes is one level's nodes in creation order.
type levelNodes struct {
	chunks [][]pair
	n      uint32 // indices used (level 0: the first two are placeholders)
}

func (v *levelNodes) at(i uint32) pair { return v.chunks[i>>chunkBits][i&(chunkSize-1)] }

func (v *levelNodes) push(p pair) {
	c := int(v.n >> chunkBits)
	if c == len(v.chunks) {
		v.chunks = append(v.chunks, make([]pair, 0, 16))
	}
	ch := v.chunks[c]
	if len(ch) == cap(ch) { // only the first chunk grows by copies, up to its fixed size
		grown := make([]pair, len(ch), min(2*cap(ch), chunkSize))
		copy(grown, ch)
		ch = grown
	}
	v.chunks[c] = append(ch, p)
	v.n++
}

// first is the first index of a level holding a node.
func first(level int) uint32 {
	if level == 0 {
		return 2
	}
	return 0
}

type levelTable struct {
	nodes levelNodes
	slots []uint32 // 0 empty, else hash bits << idxBits | index + 1
}

// table is the unique table of the incremental builder and of ZDDOf: it
// creates canonical (hash-consed, reduced) nodes.
type table struct {
	levels []levelTable
	zdd    bool
	err    error // a level overflowed; the diagram is not usable
	// recent is a small direct-mapped cache per level in front of the
	// table: the deep levels, where a sorted build asks most often, have
	// few distinct nodes, and the cache answers them from L1/L2.
	recent [][recentSize]recentEntry
}

const (
	recentSize = 256
	minSlots   = 64
)

type recentEntry struct{ lo, hi, id uint32 }

func newTable(zdd bool, L int) *table {
	t := &table{zdd: zdd, levels: make([]levelTable, L), recent: make([][recentSize]recentEntry, L)}
	for l := range t.levels {
		t.levels[l].slots = make([]uint32, minSlots)
	}
	if L > 0 {
		t.levels[0].nodes.push(pair{}) // indices 0 and 1: the terminals' references
		t.levels[0].nodes.push(pair{})
	}
	return t
}

func hashNode(level uint8, lo, hi uint32) uint64 {
	h := (uint64(lo)<<32 | uint64(hi)) ^ uint64(level)<<56 ^ uint64(level)
	h *= 0x9E3779B97F4A7C15
	h ^= h >> 29
	h *= 0xBF58476D1CE4E5B9
	return h ^ h>>32
}

// slotOf maps a hash onto a table of n slots (any n: multiply and shift).
func slotOf(h uint64, n int) int { return int(uint64(uint32(h)) * uint64(n) >> 32) }

func fingerprint(h uint64) uint32 { return uint32(h>>(64-(32-idxBits))) << idxBits }

func (t *table) mk(level int, lo, hi uint32) uint32 {
	if t.zdd {
		if hi == False {
			return lo
		}
	} else if lo == hi {
		return lo
	}
	r := &t.recent[level][(lo*0x9E3779B1^hi*0x85EBCA77)>>24%recentSize]
	if r.id != 0 && r.lo == lo && r.hi == hi {
		return r.id
	}
	id := t.lookup(level, lo, hi)
	*r = recentEntry{lo, hi, id}
	return id
}

func (t *table) lookup(level int, lo, hi uint32) uint32 {
	lt := &t.levels[level]
	h := hashNode(uint8(level), lo, hi)
	fp := fingerprint(h)
	n := len(lt.slots)
	i := slotOf(h, n)
	for {
		s := lt.slots[i]
		if s == 0 {
			break
		}
		if s&^idxMask == fp {
			idx := s&idxMask - 1
			if p := lt.nodes.at(idx); p.lo == lo && p.hi == hi {
				return mkRef(level, idx)
			}
		}
		if i++; i == n {
			i = 0
		}
	}
	idx := lt.nodes.n
	if idx > maxLevelIndex {
		if t.err == nil {
			t.err = fmt.Errorf("%w: level %d needs more than %d nodes, the most a level can hold", ErrLevelFull, level, maxLevelIndex)
		}
		return False
	}
	lt.nodes.push(pair{lo, hi})
	lt.slots[i] = fp | (idx + 1)
	if used := int(lt.nodes.n - first(level)); 5*used > 4*n {
		lt.resize(level, n+n/3)
	}
	return mkRef(level, idx)
}

func (lt *levelTable) resize(level int, n int) {
	lt.slots = make([]uint32, n)
	for idx := first(level); idx < lt.nodes.n; idx++ {
		p := lt.nodes.at(idx)
		h := hashNode(uint8(level), p.lo, p.hi)
		i := slotOf(h, n)
		for lt.slots[i] != 0 {
			if i++; i == n {
				i = 0
			}
		}
		lt.slots[i] = fingerprint(h) | (idx + 1)
	}
}

// finish drops the index and returns the nodes as a LevelDiagram.
func (t *table) finish(o Order, root uint32, count uint64) (*LevelDiagram, error) {
	if t.err != nil {
		return nil, t.err
	}
	d := &LevelDiagram{Order: o, ZDD: t.zdd, Count: count, Root: root, levels: make([]levelNodes, len(t.levels))}
	d.TableBytes = int64(len(t.recent)) * recentSize * 12
	for l := range t.levels {
		d.TableBytes += 4 * int64(len(t.levels[l].slots))
		d.levels[l] = t.levels[l].nodes
		t.levels[l] = levelTable{}
	}
	t.recent = nil
	d.index()
	d.TableBytes += d.Bytes()
	return d, nil
}

// LevelDiagram is a reduced BDD (or ZDD) as the builder leaves it: the
// nodes of each level in chunks, 8 bytes per node, children referenced by
// (level, index). It is saved as it is (Save walks it) and converted into
// a Diagram (12 bytes per node, one array) for everything else. Its dense
// numbering (the levels from the deepest, each in creation order, from 2)
// is the node numbering of that Diagram.
type LevelDiagram struct {
	Order Order
	ZDD   bool
	Count uint64 // members: the keys it was built from
	Root  uint32 // a reference: 0 False, 1 True, else level << 26 | index
	// TableBytes is what the building table held at the end of the build
	// (nodes, index, cache): its largest size.
	TableBytes int64
	// levels[l] holds the nodes testing the variable at level l.
	levels []levelNodes
	base   []uint32 // dense id of each level's first node
	nodes  int
}

func (d *LevelDiagram) index() {
	L := len(d.levels)
	d.base = make([]uint32, L)
	next := uint64(2)
	for l := L - 1; l >= 0; l-- {
		d.base[l] = uint32(next)
		next += uint64(d.levels[l].n - first(l))
	}
	d.nodes = int(next - 2)
}

// NodeCount is the number of decision nodes.
func (d *LevelDiagram) NodeCount() int { return d.nodes }

// LevelSizes counts the nodes on each level, the root's level first.
func (d *LevelDiagram) LevelSizes() []int {
	s := make([]int, len(d.levels))
	for l, v := range d.levels {
		s[l] = int(v.n - first(l))
	}
	return s
}

// Bytes is the memory the nodes take (chunks as allocated).
func (d *LevelDiagram) Bytes() int64 {
	var b int64
	for _, v := range d.levels {
		for _, c := range v.chunks {
			b += 8 * int64(cap(c))
		}
	}
	return b
}

func (d *LevelDiagram) node(r uint32) pair { return d.levels[refLevel(r)].at(refIndex(r)) }

// dense numbers a reference as the Diagram conversion does.
func (d *LevelDiagram) dense(r uint32) uint32 {
	if r < 2 {
		return r
	}
	l := refLevel(r)
	return d.base[l] + refIndex(r) - first(l)
}

// Diagram converts to the one-array form; d is left as it was.
func (d *LevelDiagram) Diagram() *Diagram {
	out := &Diagram{Order: d.Order, ZDD: d.ZDD, Count: d.Count, Root: d.dense(d.Root), Nodes: make([]Node, 2, d.nodes+2)}
	for l := len(d.levels) - 1; l >= 0; l-- {
		v := &d.levels[l]
		for i := first(l); i < v.n; i++ {
			p := v.at(i)
			out.Nodes = append(out.Nodes, Node{Lo: d.dense(p.lo), Hi: d.dense(p.hi), Level: uint8(l)})
		}
	}
	return out
}

// CheckCount checks that d holds n members, by its stored count and by a
// walk of the diagram.
func (d *LevelDiagram) CheckCount(n uint64) error { return checkCount(levelView{d}, d.Count, n) }

// SatCount counts the members from the structure alone.
func (d *LevelDiagram) SatCount() (uint64, error) { return satCount(levelView{d}) }

// check validates what the builder cannot get wrong unless it is broken:
// children on deeper levels and within them, the reduction rule. (Every
// node is reachable: the encoder's walk checks that.)
func (d *LevelDiagram) check() error {
	L := d.Order.Vars()
	if err := d.Order.Validate(); err != nil {
		return err
	}
	if len(d.levels) != L {
		return fmt.Errorf("%d levels for %d variables", len(d.levels), L)
	}
	inRange := func(r uint32, above int) bool {
		if r < 2 {
			return true
		}
		l := refLevel(r)
		return l > above && l < L && refIndex(r) >= first(l) && refIndex(r) < d.levels[l].n
	}
	if !inRange(d.Root, -1) {
		return fmt.Errorf("root %#x out of range", d.Root)
	}
	for l := range d.levels {
		v := &d.levels[l]
		for i := first(l); i < v.n; i++ {
			p := v.at(i)
			if !inRange(p.lo, l) || !inRange(p.hi, l) {
				return fmt.Errorf("level %d node %d: child out of range", l, i)
			}
			if !d.ZDD && p.lo == p.hi {
				return fmt.Errorf("level %d node %d: both branches equal (not reduced)", l, i)
			}
			if d.ZDD && p.hi == False {
				return fmt.Errorf("level %d node %d: 1-branch is False (not zero-suppressed)", l, i)
			}
		}
	}
	return nil
}

// view is what the walks over a diagram need, for both forms. Dense ids
// run over 0..size()-1 (0 and 1 the terminals) with children before their
// parents; each(f) calls f with the references in that order.
type view interface {
	vars() int
	root() uint32
	size() int
	id(r uint32) uint32
	kids(r uint32) (lo, hi uint32)
	level(r uint32) int // of a node (not a terminal)
	each(f func(r uint32))
	zdd() bool
}

type levelView struct{ d *LevelDiagram }

func (v levelView) vars() int                     { return v.d.Order.Vars() }
func (v levelView) root() uint32                  { return v.d.Root }
func (v levelView) size() int                     { return v.d.nodes + 2 }
func (v levelView) id(r uint32) uint32            { return v.d.dense(r) }
func (v levelView) kids(r uint32) (lo, hi uint32) { p := v.d.node(r); return p.lo, p.hi }
func (v levelView) level(r uint32) int            { return refLevel(r) }
func (v levelView) zdd() bool                     { return v.d.ZDD }
func (v levelView) each(f func(r uint32)) {
	for l := len(v.d.levels) - 1; l >= 0; l-- {
		for i := first(l); i < v.d.levels[l].n; i++ {
			f(mkRef(l, i))
		}
	}
}

type diagramView struct{ d *Diagram }

func (v diagramView) vars() int          { return v.d.Order.Vars() }
func (v diagramView) root() uint32       { return v.d.Root }
func (v diagramView) size() int          { return len(v.d.Nodes) }
func (v diagramView) id(r uint32) uint32 { return r }
func (v diagramView) kids(r uint32) (lo, hi uint32) {
	nd := &v.d.Nodes[r]
	return nd.Lo, nd.Hi
}
func (v diagramView) level(r uint32) int { return int(v.d.Nodes[r].Level) }
func (v diagramView) zdd() bool          { return v.d.ZDD }
func (v diagramView) each(f func(r uint32)) {
	for r := 2; r < len(v.d.Nodes); r++ {
		f(uint32(r))
	}
}

// satCount counts members with 4-byte counts per node when they fit (a
// node's count never exceeds the root's, every node being reachable), and
// 8-byte counts otherwise.
func satCount[V view](v V) (uint64, error) {
	if n, err := satCountAs[V, uint32](v); err != errNarrow {
		return n, err
	}
	return satCountAs[V, uint64](v)
}

// errNarrow: a count did not fit the narrow type; count again wider.
var errNarrow = fmt.Errorf("count wider than the count type")

func satCountAs[V view, T uint32 | uint64](v V) (uint64, error) {
	L := v.vars()
	limit := uint64(^T(0))
	cnt := make([]T, v.size())
	cnt[True] = 1
	lev := func(r uint32) int {
		if r < 2 {
			return L
		}
		return v.level(r)
	}
	// scaled: the count of child c seen from a node at level l.
	scaled := func(c uint32, l int) (uint64, error) {
		x := uint64(cnt[v.id(c)])
		if v.zdd() || x == 0 {
			return x, nil
		}
		sh := lev(c) - l - 1
		if sh >= 64 || (sh > 0 && x>>(64-uint(sh)) != 0) {
			return 0, errOverflow
		}
		return x << uint(sh), nil
	}
	var err error
	v.each(func(r uint32) {
		if err != nil {
			return
		}
		lo, hi := v.kids(r)
		l := v.level(r)
		a, err1 := scaled(lo, l)
		b, err2 := scaled(hi, l)
		s, carry := bits.Add64(a, b, 0)
		switch {
		case err1 != nil || err2 != nil || carry != 0:
			err = errOverflow
		case s > limit:
			err = errNarrow
		default:
			cnt[v.id(r)] = T(s)
		}
	})
	if err != nil {
		if err == errOverflow && limit != ^uint64(0) {
			err = errNarrow // 64 bits may still hold it
		}
		return 0, err
	}
	return scaled(v.root(), -1)
}

func checkCount[V view](v V, stored, n uint64) error {
	if stored != n {
		return fmt.Errorf("built %d members from a file of %d keys", stored, n)
	}
	if c, err := satCount(v); err != nil || c != n {
		return fmt.Errorf("BDD holds %d members, the file %d keys (%v)", c, n, err)
	}
	return nil
}
