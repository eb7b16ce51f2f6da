package gapset

import (
	"fmt"
	"math/bits"
	"sync"

	"github.com/gapset/gapset/internal/placement"
)

// Whole-board keys spend 4 bits a cell on what is a permutation: a sorted
// layer of the 4x4 puzzle is so sparse in the 64-bit key space that its
// uvarint differences take 3.5-4.2 bytes a key. A rank code keeps the
// order and drops most of that slack: the first N-m cells stay as nibbles
// (the prefix) and the last m = min(N, 8) cells are replaced by the rank of
// their arrangement among the m! orders of the tiles they hold (which the
// prefix determines):
//
//	code = prefix << 16 | rank,  rank < m! <= 40320
//
// Keys with the same prefix compare as their suffixes do, which compare as
// their ranks (lexicographic ranks), so codes sort as keys sort and their
// differences are small: about 2 bytes a key on the 4x4 layers. Coding
// costs a popcount per suffix cell; decoding a table lookup (m! entries)
// and a nibble gather, plus a sort of the prefix's complement when the
// prefix changes.
const rankCells = 8

// rankCoder codes the keys of one board size.
type rankCoder struct {
	n, m int
	all  uint32   // the tiles 0 .. n-1
	perm []uint32 // rank -> nibble j: index (in increasing tile order) of the tile in the j-th cell from the end
	fact [rankCells + 1]uint32
}

var rankPerms [rankCells + 1]func() []uint32

func init() {
	for m := range rankPerms {
		rankPerms[m] = sync.OnceValue(func() []uint32 { return buildRankPerms(m) })
	}
}

// buildRankPerms lists, for every rank r < m!, the arrangement of m sorted
// tiles whose rank is r, as the index of the tile in each cell (the cell
// j-th from the end in nibble j): the placement of rank r of m values
// below m.
func buildRankPerms(m int) []uint32 {
	perms := make([]uint32, placement.Size(m, m))
	pos := make([]uint8, m)
	for r := range perms {
		placement.Unrank(r, pos, m)
		var p uint32
		for j := 0; j < m; j++ {
			p |= uint32(pos[m-1-j]) << (4 * j)
		}
		perms[r] = p
	}
	return perms
}

func newRankCoder(cells int) *rankCoder {
	m := min(cells, rankCells)
	rc := &rankCoder{n: cells, m: m, all: uint32(1)<<cells - 1, perm: rankPerms[m]()}
	for i := range rc.fact {
		rc.fact[i] = uint32(placement.Size(i, i))
	}
	return rc
}

// code is key's rank code. The suffix's rank is its placement rank among
// its own tiles (placement.Rank of the tiles' indices in increasing order),
// taken here from the last cell back: the digit of the cell j-th from the
// end, of weight j!, is its tile counted among the tiles after it, that
// is among the tiles not in ^after.
func (rc *rankCoder) code(key uint64) uint64 {
	var r, after uint32
	for j := 0; j < rc.m; j++ {
		t := uint32(key>>(4*j)) & 15
		r += uint32(placement.Digit(^after, uint(t))) * rc.fact[j]
		after |= 1 << t
	}
	return key>>(4*rc.m)<<16 | uint64(r)
}

// rankDecoder turns codes back into keys, remembering the last prefix's
// sorted complement.
type rankDecoder struct {
	*rankCoder
	prefix uint64
	sorted uint64 // the suffix's tiles in increasing order, one a nibble
	valid  bool
}

func (d *rankDecoder) key(code uint64) (uint64, error) {
	prefix, r := code>>16, code&0xffff
	if !d.valid || prefix != d.prefix {
		var used uint32
		for i := 0; i < d.n-d.m; i++ {
			t := uint32(prefix>>(4*i)) & 15
			if t >= uint32(d.n) || used&(1<<t) != 0 {
				return 0, fmt.Errorf("damaged run: code %#x is no board of %d cells", code, d.n)
			}
			used |= 1 << t
		}
		if prefix>>(4*(d.n-d.m)) != 0 {
			return 0, fmt.Errorf("damaged run: code %#x is no board of %d cells", code, d.n)
		}
		free := d.all &^ used
		var s uint64
		for i := 0; free != 0; i++ {
			s |= uint64(bits.TrailingZeros32(free)) << (4 * i)
			free &= free - 1
		}
		d.prefix, d.sorted, d.valid = prefix, s, true
	}
	if r >= uint64(len(d.perm)) {
		return 0, fmt.Errorf("damaged run: code %#x is no board of %d cells", code, d.n)
	}
	p := d.perm[r]
	var suffix uint64
	for j := 0; j < d.m; j++ {
		idx := p >> (4 * j) & 15
		suffix |= (d.sorted >> (4 * idx) & 15) << (4 * j)
	}
	return prefix<<(4*d.m) | suffix, nil
}
