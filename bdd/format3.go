package bdd

import (
	"errors"
	"fmt"
	"io"
	"math/bits"
)

// Payload, version 3: the diagram in depth-first order from the root, low
// branch first, each node written where it is first reached, so that the
// first reference to a node costs a few bits ("a new node follows") and
// only references to nodes met before cost an index. Nodes reached from
// more than one parent ("shared") are numbered per level in the order they
// are completed; a later reference gives the child's level and its number
// counted back from the level's latest shared node. Node ids follow the
// order in which nodes are completed (post-order; children first), the
// first being 2, the root the last.
//
//	lo ranking, hi ranking   4 x 2 bits each: the edge types by rank
//	                         (types 0 False, 1 True, 2 new node, 3 earlier
//	                         node; rank r is coded as r ones then a zero,
//	                         rank 3 as three ones), one table for low
//	                         edges and one for high edges
//	new-skip coder           (coder header as in version 2) for the levels a
//	                         new child skips: child level - parent level - 1
//	back-skip coder          the same for references to earlier nodes
//	L index coders           per child level: the back-counted number
//	root                     if the diagram has nodes: new-skip of the root's level + 0
//	node                     shared flag (1 bit: more than one parent), then
//	                         the low edge and the high edge:
//	                         type; new: skip, then the child node; earlier:
//	                         skip, then the number coded by its level's coder
//
// The stream is a function of the set and the order alone (canonical).

const (
	edgeFalse = 0
	edgeTrue  = 1
	edgeNew   = 2
	edgeBack  = 3
)

// coderStats collects what choosing a coder needs, one number at a time.
type coderStats struct {
	n, maxv, gamma uint64
	rice           [selGamma]uint64 // sum of x>>k
}

func (s *coderStats) add(x uint64) {
	s.n++
	s.maxv = max(s.maxv, x)
	s.gamma += uint64(2*bits.Len64(x+1) - 1)
	for k := range s.rice {
		v := x >> uint(k)
		s.rice[k] += v
		if v == 0 {
			break
		}
	}
}

func (s *coderStats) best() coder {
	w := uint(bits.Len64(s.maxv))
	best := coder{sel: selFixed, w: w}
	bestCost := s.n*uint64(w) + 6
	if s.gamma < bestCost {
		best, bestCost = coder{sel: selGamma}, s.gamma
	}
	for k := uint(0); k <= w && k < selGamma; k++ {
		if cost := s.n*uint64(k+1) + s.rice[k]; cost < bestCost {
			best, bestCost = coder{sel: k}, cost
		}
	}
	return best
}

// ranking maps edge types to ranks by frequency (most frequent first).
type ranking struct {
	rank  [4]uint8 // type -> rank
	typeA [4]uint8 // rank -> type
}

func rankTypes(count [4]uint64) ranking {
	var r ranking
	order := []uint8{0, 1, 2, 3}
	for i := 1; i < 4; i++ { // insertion sort, stable: ties keep type order
		for j := i; j > 0 && count[order[j]] > count[order[j-1]]; j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	for rk, t := range order {
		r.rank[t] = uint8(rk)
		r.typeA[rk] = t
	}
	return r
}

func (r ranking) header(bw *bitWriter) {
	for _, t := range r.typeA {
		bw.write(uint64(t), 2)
	}
}

func readRanking(br *bitReader) (ranking, error) {
	var r ranking
	seen := 0
	for rk := range r.typeA {
		t := uint8(br.read(2))
		if seen>>t&1 != 0 {
			return r, errors.New("edge type ranking is not a permutation")
		}
		seen |= 1 << t
		r.typeA[rk] = t
		r.rank[t] = uint8(rk)
	}
	return r, br.err
}

func (r ranking) put(bw *bitWriter, t int) {
	switch rk := r.rank[t]; rk {
	case 3:
		bw.write(7, 3)
	default:
		bw.write(1<<(rk+1)-2, uint(rk)+1) // rk ones, then a zero
	}
}

func (r ranking) get(br *bitReader) int {
	rk := 0
	for rk < 3 && br.read(1) == 1 {
		rk++
	}
	return int(r.typeA[rk])
}

// dfsSink receives the depth-first walk of encodeV3: once to gather
// statistics, once to write.
type dfsSink interface {
	shared(flag bool)
	edge(hi bool, typ int)
	newSkip(skip uint64)
	back(level int, skip, idx uint64)
}

type statSink struct {
	types       [2][4]uint64
	newS, backS coderStats
	idx         []coderStats
}

func (s *statSink) shared(bool)                 {}
func (s *statSink) edge(hi bool, typ int)       { s.types[b2i(hi)][typ]++ }
func (s *statSink) newSkip(skip uint64)         { s.newS.add(skip) }
func (s *statSink) back(lv int, skip, i uint64) { s.backS.add(skip); s.idx[lv].add(i) }

type writeSink struct {
	bw          *bitWriter
	rank        [2]ranking
	newC, backC coder
	idx         []coder
}

func (w *writeSink) shared(f bool) {
	var b uint64
	if f {
		b = 1
	}
	w.bw.write(b, 1)
}
func (w *writeSink) edge(hi bool, typ int) { w.rank[b2i(hi)].put(w.bw, typ) }
func (w *writeSink) newSkip(skip uint64)   { w.newC.put(w.bw, skip) }
func (w *writeSink) back(lv int, skip, i uint64) {
	w.backC.put(w.bw, skip)
	w.idx[lv].put(w.bw, i)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// walkerV3 runs the depth-first walk over either form of a diagram, once
// per sink. Per node it keeps one bit (more than one parent) and the
// shared number (4 bytes), allocated once for both walks.
type walkerV3[V view] struct {
	v     V
	two   []uint64 // more than one parent
	num   []uint32 // shared number + 1, once completed
	count []uint32 // shared nodes completed per level
}

func newWalkerV3[V view](v V) *walkerV3[V] {
	w := &walkerV3[V]{v: v}
	if v.root() < 2 {
		return w
	}
	n := v.size()
	one := make([]uint64, (n+63)/64) // at least one parent
	w.two = make([]uint64, (n+63)/64)
	mark := func(r uint32) {
		if r < 2 {
			return
		}
		i := v.id(r)
		k, b := i/64, uint64(1)<<(i%64)
		w.two[k] |= one[k] & b
		one[k] |= b
	}
	v.each(func(r uint32) {
		lo, hi := v.kids(r)
		mark(lo)
		mark(hi)
	})
	mark(v.root())
	w.num = make([]uint32, n)
	w.count = make([]uint32, v.vars())
	return w
}

// walk feeds the sink and returns the number of nodes it reached.
func (w *walkerV3[V]) walk(sink dfsSink) (reached int) {
	v := w.v
	if v.root() < 2 {
		return 0
	}
	clear(w.num)
	clear(w.count)
	num, count, two := w.num, w.count, w.two
	var visit func(u uint32, lv int)
	visit = func(u uint32, lv int) {
		reached++
		ui := v.id(u)
		shared := two[ui/64]>>(ui%64)&1 != 0
		sink.shared(shared)
		lo, hi := v.kids(u)
		for e, c := range [2]uint32{lo, hi} {
			isHi := e == 1
			if c < 2 {
				sink.edge(isHi, int(c))
				continue
			}
			cl := v.level(c)
			if k := num[v.id(c)]; k != 0 {
				sink.edge(isHi, edgeBack)
				sink.back(cl, uint64(cl-lv-1), uint64(count[cl]-k))
				continue
			}
			sink.edge(isHi, edgeNew)
			sink.newSkip(uint64(cl - lv - 1))
			visit(c, cl)
		}
		if shared {
			count[lv]++
			num[ui] = count[lv]
		}
	}
	rl := v.level(v.root())
	sink.newSkip(uint64(rl))
	visit(v.root(), rl)
	return reached
}

// cost is the number of bits c takes for the numbers s has seen.
func (s *coderStats) cost(c coder) uint64 {
	switch c.sel {
	case selGamma:
		return s.gamma
	case selFixed:
		return s.n * uint64(c.w)
	}
	return s.n*uint64(c.sel+1) + s.rice[c.sel]
}

func (c coder) headerBits() uint64 {
	if c.sel == selFixed {
		return 12
	}
	return 6
}

func (r ranking) bits(t int) uint64 { return min(uint64(r.rank[t])+1, 3) }

// encodeV3 writes the version 3 payload of a reduced diagram to out, after
// calling size with its length in bytes (known before a bit is written,
// so that a header holding it can go first and nothing is held in memory).
// It refuses a diagram with nodes the root does not reach.
func encodeV3[V view](v V, nodes int, size func(payload uint64) error, out io.Writer) error {
	L := v.vars()
	st := &statSink{idx: make([]coderStats, L)}
	wk := newWalkerV3(v)
	if got := wk.walk(st); got != nodes {
		return fmt.Errorf("%d of %d nodes unreachable from the root", nodes-got, nodes)
	}
	w := &writeSink{bw: &bitWriter{out: out}, rank: [2]ranking{rankTypes(st.types[0]), rankTypes(st.types[1])},
		newC: st.newS.best(), backC: st.backS.best(), idx: make([]coder, L)}
	total := 16 + w.newC.headerBits() + w.backC.headerBits() + st.newS.cost(w.newC) + st.backS.cost(w.backC) + uint64(nodes)
	for i := range w.idx {
		w.idx[i] = st.idx[i].best()
		total += w.idx[i].headerBits() + st.idx[i].cost(w.idx[i])
	}
	for e := range st.types {
		for t, c := range st.types[e] {
			total += c * w.rank[e].bits(t)
		}
	}
	payload := (total + 7) / 8
	if err := size(payload); err != nil {
		return err
	}
	w.rank[0].header(w.bw)
	w.rank[1].header(w.bw)
	w.newC.header(w.bw)
	w.backC.header(w.bw)
	for _, c := range w.idx {
		c.header(w.bw)
	}
	wk.walk(w)
	if err := w.bw.close(); err != nil {
		return err
	}
	if w.bw.n != payload {
		return fmt.Errorf("wrote a payload of %d bytes, %d counted", w.bw.n, payload)
	}
	return nil
}

// readCodes reads the codes at the head of a version 3 payload of L
// levels: the edge-type rankings (low, high), the new-skip and back-skip
// coders and the index coder of each level.
func readCodes(br *bitReader, L int) (rank [2]ranking, newC, backC coder, idx []coder, err error) {
	for i := range rank {
		if rank[i], err = readRanking(br); err != nil {
			return
		}
	}
	newC, backC = readCoder(br), readCoder(br)
	idx = make([]coder, L)
	for i := range idx {
		idx[i] = readCoder(br)
	}
	err = br.err
	return
}

// decodeV3 reads a version 3 payload into d (whose Order, Root and Count are
// set from the header); the caller checks the structure afterwards.
func decodeV3(payload []byte, d *Diagram, nodes uint64) error {
	L := d.Order.Vars()
	br := &bitReader{buf: payload}
	rank, newC, backC, idx, err := readCodes(br, L)
	if err != nil {
		return err
	}
	d.Nodes = make([]Node, 2, nodes+2)
	shared := make([][]uint32, L)
	var flags []uint64 // shared flag per node id
	setFlag := func(id uint32) {
		for uint64(len(flags))*64 <= uint64(id) {
			flags = append(flags, 0)
		}
		flags[id/64] |= 1 << (id % 64)
	}
	errBad := errors.New("bad node stream")
	var node func(lv int) uint32
	node = func(lv int) uint32 {
		if br.err != nil {
			return 0
		}
		if uint64(len(d.Nodes)-2) >= nodes {
			br.err = fmt.Errorf("more nodes than the header's %d", nodes)
			return 0
		}
		isShared := br.read(1) == 1
		var kids [2]uint32
		for e := range kids {
			switch rank[e].get(br) {
			case edgeFalse:
				kids[e] = False
			case edgeTrue:
				kids[e] = True
			case edgeNew:
				cl := lv + 1 + int(newC.get(br))
				if br.err != nil || cl >= L || cl <= lv {
					br.err = errBad
					return 0
				}
				kids[e] = node(cl)
			case edgeBack:
				cl := lv + 1 + int(backC.get(br))
				if br.err != nil || cl >= L || cl <= lv {
					br.err = errBad
					return 0
				}
				i := idx[cl].get(br)
				if br.err != nil || i >= uint64(len(shared[cl])) {
					br.err = errBad
					return 0
				}
				kids[e] = shared[cl][uint64(len(shared[cl]))-1-i]
			}
			if br.err != nil {
				return 0
			}
		}
		id := uint32(len(d.Nodes))
		d.Nodes = append(d.Nodes, Node{Lo: kids[0], Hi: kids[1], Level: uint8(lv)})
		if isShared {
			shared[lv] = append(shared[lv], id)
			setFlag(id)
		}
		return id
	}
	if nodes > 0 {
		lv := newC.get(br)
		if br.err != nil || lv >= uint64(L) {
			return errBad
		}
		root := node(int(lv))
		if br.err != nil {
			return br.err
		}
		if d.Root != root {
			return fmt.Errorf("root is node %d, header says %d", root, d.Root)
		}
	}
	if !br.rest() {
		return errors.New("payload has trailing data")
	}
	if uint64(len(d.Nodes)-2) != nodes {
		return fmt.Errorf("payload holds %d nodes, header says %d", len(d.Nodes)-2, nodes)
	}
	// Canonical form: a node is flagged shared exactly when it has more
	// than one parent.
	multi := make([]uint8, len(d.Nodes))
	for _, nd := range d.Nodes[2:] {
		multi[nd.Lo] = min(multi[nd.Lo]+1, 2)
		multi[nd.Hi] = min(multi[nd.Hi]+1, 2)
	}
	if d.Root >= 2 {
		multi[d.Root] = min(multi[d.Root]+1, 2)
	}
	for id := uint32(2); id < uint32(len(d.Nodes)); id++ {
		flagged := uint64(len(flags)) > uint64(id/64) && flags[id/64]>>(id%64)&1 != 0
		if flagged != (multi[id] > 1) {
			return fmt.Errorf("node %d: shared flag disagrees with its parents", id)
		}
	}
	return nil
}
