package ida

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/gapset/gapset/internal/infile"
)

//go:generate go run gen_fsm.go

// Duplicate-move pruning by a finite-state machine (Taylor and Korf,
// "Pruning duplicate nodes in depth-first search", AAAI 1993).
//
// A move string is a sequence of blank moves (up, left, right, down; the
// order of the search loops, encode.Neighbors). Two strings are duplicates
// when, from the same board, they leave the same board (every tile and the
// blank in the same cell). A pair (short, long) with short before long in
// shortlex order (shorter first, then lexicographic by direction) lets the
// search drop every path that ends with long, provided short is legal
// wherever long is: here, when short's blank trajectory lies inside the
// bounding box of long's. A board is a rectangle, so a box that fits holds
// every cell of short's trajectory too; and the moves touch only the cells
// of the trajectory, so both strings have the same effect on any board on
// which both are legal. The pairs hold on every board size.
//
// The pairs are learned by a search over move strings from a blank in the
// middle of a board large enough that no string up to the bound meets an
// edge, in shortlex order: a string is a duplicate when an earlier string,
// itself free of duplicates, has the same effect and fits in its box. Only
// strings free of shorter duplicates are extended, so no duplicate string
// contains another. The strings are compiled into an Aho-Corasick automaton
// over the four directions: the state after a path is the longest suffix of
// the path that is a proper prefix of a duplicate string, and a move that
// completes a duplicate string has no next state (pruned).
//
// Soundness (docs/proofs.md#duplicate-move-pruning): the shortlex-least
// optimal solution P is never pruned (a duplicate string in P could be
// replaced by its partner, giving a shorter or a lexicographically smaller
// solution), and with admissible bounds its nodes are never cut at the
// optimal limit, so IDA* still returns the optimal length. The search
// expands children in direction order, so the first solution of the last
// iteration is the lexicographically least one, P, with or without the
// machine.

// Directions of a blank move, in the search loops' order.
const (
	dirUp = iota
	dirLeft
	dirRight
	dirDown
)

// dirNames spells a move string (the blank's moves).
const dirNames = "ULRD"

// FSM is a compiled duplicate-move automaton: Next[4*state+dir] is the
// state after moving the blank in direction dir, or -1 when the move
// completes a duplicate string (the child is pruned). State 0 is the empty
// path (the root). An FSM is read-only and shared between searches.
type FSM struct {
	Next []int32
	// MaxLen is the bound on the length of the learned strings; Strings
	// is how many duplicate strings the automaton prunes (the move that
	// undoes the previous one is 4 strings of length 2), Learned the
	// strings the learning search kept (free of duplicates, the empty
	// string included).
	MaxLen, Strings, Learned int
	// Built is how long learning and compiling took.
	Built time.Duration
}

// States is the number of states of the automaton.
func (f *FSM) States() int { return len(f.Next) / 4 }

// String describes the automaton in one line.
func (f *FSM) String() string {
	return fmt.Sprintf("fsm %d: %d duplicate strings, %d states, built in %v", f.MaxLen, f.Strings, f.States(), f.Built.Round(time.Millisecond))
}

// Prunes reports whether the automaton prunes a path ending with the move
// string moves (letters of "ULRD"): some move of it has no next state.
func (f *FSM) Prunes(moves string) bool {
	st := int32(0)
	for i := 0; i < len(moves); i++ {
		d := strings.IndexByte(dirNames, moves[i])
		if d < 0 {
			return false
		}
		if st = f.Next[4*st+int32(d)]; st < 0 {
			return true
		}
	}
	return false
}

// DefaultFSMLength is the string length bound of DefaultFSM, chosen by
// measurement (docs/solving.md#search-options---bpmx---fsm): 19,625
// duplicate strings, 70,051 states; learning them takes seconds and a
// gigabyte, so they are stored in fsm14.gz (written by gen_fsm.go, checked
// by the tests).
const DefaultFSMLength = 14

//go:embed fsm14.gz
var defaultPairs []byte

var (
	fsmOnce    sync.Once
	defaultFSM *FSM
	undoOnce   sync.Once
	undoFSM    [2]*FSM
)

// DefaultFSM is the duplicate-move automaton with strings of up to
// DefaultFSMLength moves, compiled once per process from the stored pairs.
func DefaultFSM() *FSM {
	fsmOnce.Do(func() {
		start := time.Now()
		words, maxLen, kept, err := readPairWords(bytes.NewReader(defaultPairs))
		if err != nil || maxLen != DefaultFSMLength {
			panic(fmt.Sprintf("ida: fsm14.gz: %v (strings of up to %d moves)", err, maxLen))
		}
		longs := make([]moveString, len(words)/2) // straight from the file's words: no strings
		for i := range longs {
			longs[i] = unpackMoves(words[2*i])
		}
		defaultFSM = compileLongs(longs, maxLen, kept, start)
	})
	return defaultFSM
}

// moveRuleFSM is the automaton of the loops' own rule: the move that undoes
// the previous one is pruned (the strings of length 2), or with keepUndo
// nothing is (one state).
func moveRuleFSM(keepUndo bool) *FSM {
	undoOnce.Do(func() {
		undoFSM[0] = NewFSM(2)
		undoFSM[1] = &FSM{Next: []int32{0, 0, 0, 0}}
	})
	if keepUndo {
		return undoFSM[1]
	}
	return undoFSM[0]
}

// NewFSM learns the duplicate strings of up to maxLen moves (2 to 28)
// and compiles them.
func NewFSM(maxLen int) *FSM {
	start := time.Now()
	pairs, kept := LearnDuplicates(maxLen)
	return compilePairs(pairs, maxLen, kept, start)
}

func compilePairs(pairs []DuplicatePair, maxLen, kept int, start time.Time) *FSM {
	longs := make([]moveString, len(pairs))
	for i, p := range pairs {
		longs[i] = parseMoves(p.Long)
	}
	return compileLongs(longs, maxLen, kept, start)
}

// compileLongs is the automaton pruning the long strings of the pairs.
func compileLongs(longs []moveString, maxLen, kept int, start time.Time) *FSM {
	f := compileFSM(longs)
	f.MaxLen, f.Strings, f.Learned = maxLen, len(longs), kept
	f.Built = time.Since(start)
	return f
}

// pairsMagic starts a file of duplicate pairs (WriteDuplicatePairs).
const pairsMagic = "gapset duplicate pairs 1\n"

// WriteDuplicatePairs writes learned pairs, gzipped: the magic line, the
// length bound, the kept count and the pair count (little-endian uint32),
// then each pair's long and short string, each a uint32 with the length in
// the top 4 bits and move i in bits 2i and 2i+1 (at most 14 moves).
func WriteDuplicatePairs(w io.Writer, pairs []DuplicatePair, maxLen, kept int) error {
	if maxLen > 14 {
		return fmt.Errorf("strings of up to %d moves: the file holds at most 14", maxLen)
	}
	z := gzip.NewWriter(w)
	buf := []byte(pairsMagic)
	for _, x := range []int{maxLen, kept, len(pairs)} {
		buf = binary.LittleEndian.AppendUint32(buf, uint32(x))
	}
	for _, p := range pairs {
		for _, m := range []string{p.Long, p.Short} {
			buf = binary.LittleEndian.AppendUint32(buf, uint32(len(m))<<28|uint32(parseMoves(m)&(1<<28-1)))
		}
	}
	if _, err := z.Write(buf); err != nil {
		return err
	}
	return z.Close()
}

// ReadDuplicatePairs reads what WriteDuplicatePairs wrote.
func ReadDuplicatePairs(r io.Reader) (pairs []DuplicatePair, maxLen, kept int, err error) {
	words, maxLen, kept, err := readPairWords(r)
	if err != nil {
		return nil, 0, 0, err
	}
	pairs = make([]DuplicatePair, len(words)/2)
	for i := range pairs {
		pairs[i] = DuplicatePair{Long: unpackMoves(words[2*i]).String(), Short: unpackMoves(words[2*i+1]).String()}
	}
	return pairs, maxLen, kept, nil
}

// unpackMoves is a string as WriteDuplicatePairs packs it in a word.
func unpackMoves(x uint32) moveString {
	return moveString(x&(1<<28-1)) | moveString(x>>28)<<56
}

// readPairWords reads a file of duplicate pairs up to its words: each
// pair's long string, then its short one.
func readPairWords(r io.Reader) (words []uint32, maxLen, kept int, err error) {
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil, 0, 0, err
	}
	data, err := infile.ReadAllFrom(z, "the duplicate pairs", "a file of duplicate pairs", 64<<20)
	if err != nil {
		return nil, 0, 0, err
	}
	if !bytes.HasPrefix(data, []byte(pairsMagic)) || len(data) < len(pairsMagic)+12 {
		return nil, 0, 0, errors.New("not a file of duplicate pairs")
	}
	data = data[len(pairsMagic):]
	word := func(i int) uint32 { return binary.LittleEndian.Uint32(data[4*i:]) }
	maxLen, kept = int(word(0)), int(word(1))
	n := int(word(2))
	if len(data) != 12+8*n {
		return nil, 0, 0, fmt.Errorf("%d pairs announced in %d bytes", n, len(data))
	}
	words = make([]uint32, 2*n)
	for i := range words {
		words[i] = word(3 + i)
	}
	return words, maxLen, kept, nil
}

// moveString is a move string of at most 28 moves: move i in bits 2i and
// 2i+1, the length in the top byte.
type moveString uint64

func (m moveString) len() int       { return int(m >> 56) }
func (m moveString) move(i int) int { return int(m>>(2*i)) & 3 }

func (m moveString) push(d int) moveString {
	n := m.len()
	return m&(1<<(2*n)-1) | moveString(d)<<(2*n) | moveString(n+1)<<56
}

// suffix is the last k moves of m.
func (m moveString) suffix(k int) moveString {
	n := m.len()
	return (m>>(2*(n-k)))&(1<<(2*k)-1) | moveString(k)<<56
}

func (m moveString) String() string {
	b := make([]byte, m.len())
	for i := range b {
		b[i] = dirNames[m.move(i)]
	}
	return string(b)
}

// learner is the learning search: a board large enough that no string of
// up to maxLen moves from its middle meets an edge, cells labelled by
// their own index, and the strings kept so far (free of duplicates) under
// the hashes of their effects.
type learner struct {
	w, center int
	off       [4]int
	board     []int32 // board[cell] = label; the identity at rest
	pos       int     // the blank's cell
	path      [29]int // the blank's cells along the current string
	kept      hashTable
	pairs     []DuplicatePair
}

// DuplicatePair is a learned duplicate string Long and the string Short
// before it in shortlex order that has the same effect and whose blank
// trajectory fits in Long's bounding box.
type DuplicatePair struct {
	Long, Short string
}

func newLearner(maxLen int) *learner {
	w := 2*maxLen + 3
	l := &learner{w: w, center: (w/2)*w + w/2, board: make([]int32, w*w)}
	for i := range l.board {
		l.board[i] = int32(i)
	}
	l.off = [4]int{-w, -1, 1, w}
	l.pos = l.center
	return l
}

// zobrist is the hash term of label v on cell c; a board's hash is the xor
// of the terms of its moved cells (0 at rest).
func zobrist(c int, v int32) uint64 {
	if int32(c) == v {
		return 0
	}
	return mix64(uint64(c)<<32 | uint64(v))
}

// step moves the blank in direction d and returns the change of the hash.
func (l *learner) step(d int) uint64 {
	a, b := l.pos, l.pos+l.off[d]
	va, vb := l.board[a], l.board[b]
	h := zobrist(a, va) ^ zobrist(b, vb) ^ zobrist(a, vb) ^ zobrist(b, va)
	l.board[a], l.board[b] = vb, va
	l.pos = b
	return h
}

// box is a blank trajectory's bounding box, relative to its start.
type box struct{ r0, r1, c0, c1 int }

func (b box) within(o box) bool {
	return b.r0 >= o.r0 && b.r1 <= o.r1 && b.c0 >= o.c0 && b.c1 <= o.c1
}

// boxOf is the bounding box of m's blank trajectory.
func boxOf(m moveString) box {
	var bx box
	r, c := 0, 0
	for i := 0; i < m.len(); i++ {
		switch m.move(i) {
		case dirUp:
			r--
		case dirLeft:
			c--
		case dirRight:
			c++
		default:
			r++
		}
		bx = box{min(bx.r0, r), max(bx.r1, r), min(bx.c0, c), max(bx.c1, c)}
	}
	return bx
}

// effect is the board a string leaves from rest: the moved cells' labels.
func (l *learner) effect(m moveString) map[int]int32 {
	saved, savedPos := append([]int32(nil), l.board...), l.pos
	l.pos = l.center
	for i := 0; i < m.len(); i++ {
		l.step(m.move(i))
	}
	out := map[int]int32{}
	for c, v := range l.board {
		if int32(c) != v {
			out[c] = v
		}
	}
	copy(l.board, saved)
	l.pos = savedPos
	return out
}

// sameEffect compares the effects of a and b exactly (their hashes agree).
func (l *learner) sameEffect(a, b moveString) bool {
	ea, eb := l.effect(a), l.effect(b)
	if len(ea) != len(eb) {
		return false
	}
	for c, v := range ea {
		if w, ok := eb[c]; !ok || w != v {
			return false
		}
	}
	return true
}

// mix64 is the finaliser of splitmix64.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	return x ^ x>>31
}

// hashTable maps effect hashes to the kept strings with that hash (open
// addressing; a hash may be stored more than once).
type hashTable struct {
	keys []uint64
	vals []moveString
	n    int
}

func (t *hashTable) add(h uint64, m moveString) {
	if 2*(t.n+1) > len(t.keys) {
		old, oldv := t.keys, t.vals
		size := max(1024, 2*len(old))
		t.keys, t.vals, t.n = make([]uint64, size), make([]moveString, size), 0
		for i, k := range old {
			if oldv[i] != 0 {
				t.add(k, oldv[i])
			}
		}
	}
	mask := uint64(len(t.keys) - 1)
	i := mix64(h) & mask
	for t.vals[i] != 0 {
		i = (i + 1) & mask
	}
	t.keys[i], t.vals[i] = h, m
	t.n++
}

// find calls fn on each string stored under h until it returns true.
func (t *hashTable) find(h uint64, fn func(moveString) bool) bool {
	if len(t.keys) == 0 {
		return false
	}
	mask := uint64(len(t.keys) - 1)
	for i := mix64(h) & mask; t.vals[i] != 0; i = (i + 1) & mask {
		if t.keys[i] == h && fn(t.vals[i]) {
			return true
		}
	}
	return false
}

// stored marks a string in the table: the empty string's length byte is
// 0, so every stored value has bit 63 set.
const stored = moveString(1) << 63

// LearnDuplicates returns the duplicate strings of up to maxLen moves
// (2 to 28), none containing another, in shortlex order, with their
// partners, and how many strings were kept (free of duplicates, the empty
// string included). Memory and time grow about threefold per move: 14
// moves take about 3 s and 1 GB.
// Pass n visits the kept strings of up to n-1 moves depth first, in
// lexicographic order, with the automaton of the duplicates shorter than
// n (a string is kept exactly when the automaton does not prune it), and
// tests each extension to n moves against the strings kept before it.
func LearnDuplicates(maxLen int) ([]DuplicatePair, int) {
	if maxLen < 2 || maxLen > 28 {
		panic(fmt.Sprintf("ida: duplicate strings of up to %d moves: want 2 to 28", maxLen))
	}
	l := newLearner(maxLen)
	l.kept.add(0, stored)
	for n := 1; n <= maxLen; n++ {
		var longs []moveString
		for _, p := range l.pairs {
			longs = append(longs, parseMoves(p.Long))
		}
		f := compileFSM(longs)
		l.pass(f, 0, 0, 0, box{}, n)
	}
	return l.pairs, l.kept.n
}

// pass extends the kept string m (state st of f, effect hash h, box bx)
// to n moves.
func (l *learner) pass(f *FSM, m moveString, st int32, h uint64, bx box, n int) {
	depth := m.len()
	r, c := l.pos/l.w-l.center/l.w, l.pos%l.w-l.center%l.w
	for d := 0; d < 4; d++ {
		ns := f.Next[4*st+int32(d)]
		if ns < 0 {
			continue
		}
		t := m.push(d)
		nr, nc := r+[4]int{-1, 0, 0, 1}[d], c+[4]int{0, -1, 1, 0}[d]
		tb := box{min(bx.r0, nr), max(bx.r1, nr), min(bx.c0, nc), max(bx.c1, nc)}
		th := h ^ l.step(d)
		if depth+1 < n {
			l.pass(f, t, ns, th, tb, n)
		} else {
			var short moveString
			if l.kept.find(th, func(s moveString) bool {
				short = s &^ stored
				return boxOf(short).within(tb) && l.sameEffect(short, t)
			}) {
				l.pairs = append(l.pairs, DuplicatePair{t.String(), short.String()})
			} else {
				l.kept.add(th, t|stored)
			}
		}
		l.step(3 - d) // the opposite direction
	}
}

// parseMoves reads a move string of letters of "ULRD".
func parseMoves(s string) moveString {
	var m moveString
	for i := 0; i < len(s); i++ {
		m = m.push(strings.IndexByte(dirNames, s[i]))
	}
	return m
}

// compileFSM builds the Aho-Corasick automaton of the strings (none a
// substring of another): states are the trie's nodes that are proper
// prefixes of strings, the next state of a move the longest suffix of the
// extended path that is one, -1 when the extended path ends with a string.
func compileFSM(strs []moveString) *FSM {
	// the trie: child[4*node+d], 0 = none (node 0 is the root)
	child := []int32{0, 0, 0, 0}
	end := []bool{false}
	for _, m := range strs {
		v := int32(0)
		for i := 0; i < m.len(); i++ {
			d := m.move(i)
			if child[4*v+int32(d)] == 0 {
				child[4*v+int32(d)] = int32(len(end))
				child = append(child, 0, 0, 0, 0)
				end = append(end, false)
			}
			v = child[4*v+int32(d)]
		}
		end[v] = true
	}
	// breadth first: goto over the failure links, dead ends propagated
	n := len(end)
	next := make([]int32, 4*n)
	fail := make([]int32, n)
	dead := append([]bool(nil), end...)
	queue := []int32{0}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for d := int32(0); d < 4; d++ {
			u := child[4*v+d]
			if u == 0 {
				if v == 0 {
					next[d] = 0
				} else {
					next[4*v+d] = next[4*fail[v]+d]
				}
				continue
			}
			next[4*v+d] = u
			if v != 0 {
				fail[u] = next[4*fail[v]+d]
			}
			dead[u] = dead[u] || dead[fail[u]]
			queue = append(queue, u)
		}
	}
	// number the live states (the root first) and drop the dead ones
	id := make([]int32, n)
	live := int32(0)
	for v := range n {
		id[v] = -1
		if !dead[v] {
			id[v] = live
			live++
		}
	}
	out := make([]int32, 0, 4*live)
	for v := range n {
		if !dead[v] {
			for d := range 4 {
				out = append(out, id[next[4*v+d]])
			}
		}
	}
	return &FSM{Next: out}
}
