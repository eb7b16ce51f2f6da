package ida

// memoBits sizes each level's direct-mapped memo at its largest: 65,536
// entries, 576 KiB, which stays in the core's L2 cache (87% hits for Gap0_8
// on Korf 9; 4,096 entries gave 72%, 262,144 no more than 65,536).
const memoBits = 16

// memoFirstBits is a memo's size when it is made: 1,024 entries, 9 KiB. A
// search with a pattern database asks a level a few thousand times (Korf's
// 100 with pdb78: about 18,000 nodes a search), so zeroing 576 KiB per level
// and search cost more than the answers saved; a memo grows when its misses
// exceed growMisses times its entries, up to memoBits.
const memoFirstBits = 10

// growMisses is how many misses per entry make a memo grow four-fold.
const growMisses = 2

// memo is one level's direct-mapped cache of answers by masked key. It only
// ever saves work: growing drops its answers, and the search asks the set
// again, so the answers, and the nodes, do not depend on its size.
type memo struct {
	mask    uint64
	shift   uint // 64 - log2(len(keys))
	keys    []uint64
	ans     []uint8 // 0 empty, 1 no, 2 yes
	misses  int     // since the last growth
	maxBits uint
}

// newMemo makes a memo of memoFirstBits entries that grows up to memoBits
// for the 15-puzzle and stays small on boards of 12 cells or fewer, whose
// searches are short.
func newMemo(mask uint64, cells int) memo {
	maxBits := uint(memoBits)
	if cells <= 12 {
		maxBits = memoFirstBits
	}
	m := memo{mask: mask, maxBits: maxBits}
	m.resize(memoFirstBits)
	return m
}

// resize empties the memo and makes it 1<<bits entries.
func (m *memo) resize(bits uint) {
	m.shift = 64 - bits
	m.keys = make([]uint64, 1<<bits)
	m.ans = make([]uint8, 1<<bits)
	m.misses = 0
}

// ask looks key up in set through memo m.
func (e *gapEval) ask(set Set, m *memo, key uint64) bool {
	k := key & m.mask
	slot := (k * 0x9E3779B97F4A7C15) >> m.shift
	if a := m.ans[slot]; a != 0 && m.keys[slot] == k {
		e.hits++
		return a == 2
	}
	in := set.Contains(key)
	if m.misses++; m.misses > growMisses*len(m.keys) && 64-m.shift < m.maxBits {
		m.resize(min(64-m.shift+2, m.maxBits))
		slot = (k * 0x9E3779B97F4A7C15) >> m.shift
	}
	m.keys[slot] = k
	m.ans[slot] = 1
	if in {
		m.ans[slot] = 2
	}
	return in
}
