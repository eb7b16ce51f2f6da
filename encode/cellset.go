package encode

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// CellSet is a set of cells of a board of at most 16 cells: bit c is cell
// c (row-major). A key projected onto a cell set (Projector.Gather) holds
// the contents of its cells c_1 < ... < c_k in its low 4k bits, c_1 most
// significant, so the projection onto the last k cells is exactly
// Project(key, k): every key-set file of the last k cells keeps its bytes.
type CellSet uint16

// LastCells is the set of the last k cells of an n-cell board.
func LastCells(n, k int) CellSet {
	if k <= 0 {
		return 0
	}
	return CellSet((1<<uint(n) - 1) &^ (1<<uint(n-k) - 1))
}

// CellSetOf is the set of the given cells (each in 0..15).
func CellSetOf(cells []int) CellSet {
	var s CellSet
	for _, c := range cells {
		s |= 1 << uint(c)
	}
	return s
}

// Len is the number of cells.
func (s CellSet) Len() int { return bits.OnesCount16(uint16(s)) }

// Cells lists the cells, increasing.
func (s CellSet) Cells() []int {
	var out []int
	for c := 0; c < 16; c++ {
		if s&(1<<uint(c)) != 0 {
			out = append(out, c)
		}
	}
	return out
}

// IsLast tells whether s is the last s.Len() cells of an n-cell board.
func (s CellSet) IsLast(n int) bool { return s == LastCells(n, s.Len()) }

// Check refuses an empty set or one with a cell beyond an n-cell board.
func (s CellSet) Check(n int) error {
	if s == 0 {
		return fmt.Errorf("an empty cell set")
	}
	if n < 16 && s>>uint(n) != 0 {
		return fmt.Errorf("cell set %s has cells beyond the %d of the board", s, n)
	}
	return nil
}

// String writes the set as ParseCellSet reads it: ranges joined by "+"
// ("0-3+8-11"), a shell-safe word.
func (s CellSet) String() string {
	var parts []string
	cells := s.Cells()
	for i := 0; i < len(cells); {
		j := i
		for j+1 < len(cells) && cells[j+1] == cells[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(cells[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", cells[i], cells[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, "+")
}

// Hex is the set as four upper-case hex digits (bit c is cell c): the
// fixed-width spelling in file names (keyset.Header.Name).
func (s CellSet) Hex() string { return fmt.Sprintf("%04X", uint16(s)) }

// ParseCellSet reads cells and ranges of cells joined by "+" ("0-3+8-11",
// "0+3+4+7-9+11"), each cell in 0..15, none twice.
func ParseCellSet(str string) (CellSet, error) {
	var s CellSet
	for _, f := range strings.Split(str, "+") {
		lo, hi, isRange := strings.Cut(f, "-")
		a, err := cellNumber(lo)
		if err != nil {
			return 0, fmt.Errorf("cell set %q: %v", str, err)
		}
		b := a
		if isRange {
			if b, err = cellNumber(hi); err != nil {
				return 0, fmt.Errorf("cell set %q: %v", str, err)
			}
			if b < a {
				return 0, fmt.Errorf("cell set %q: range %s runs backwards", str, f)
			}
		}
		for c := a; c <= b; c++ {
			if s&(1<<uint(c)) != 0 {
				return 0, fmt.Errorf("cell set %q: cell %d given twice", str, c)
			}
			s |= 1 << uint(c)
		}
	}
	return s, nil
}

func cellNumber(f string) (int, error) {
	c, err := strconv.Atoi(f)
	if err != nil || c < 0 || c > 15 || strconv.Itoa(c) != f {
		return 0, fmt.Errorf("%q is not a cell number 0..15", f)
	}
	return c, nil
}

// Projector gathers the cells of a set from the keys of an n-cell board
// (Gather) and puts a gathered key back in place (Scatter). Its zero value
// is not usable: make one with CellSet.Projector.
type Projector struct {
	k      int
	last   bool   // the cells are the last k: gathering is a mask
	mask   uint64 // the low 4k bits
	shifts [16]uint8
}

// Projector makes the projector of s on an n-cell board (s.Check(n) must
// hold).
func (s CellSet) Projector(n int) Projector { return s.Within(LastCells(n, n)) }

// Within makes the projector of s from keys already gathered onto outer, a
// superset of s (Projector is Within the whole board): a projection of a
// projection.
func (s CellSet) Within(outer CellSet) Projector {
	oc := outer.Cells()
	p := Projector{k: s.Len(), mask: ProjectMask(s.Len())}
	i := 0
	for j, c := range oc {
		if s&(1<<uint(c)) != 0 {
			p.shifts[i] = uint8(4 * (len(oc) - 1 - j))
			i++
		}
	}
	// the last k of outer's cells: gathering is a mask
	p.last = p.k > 0 && int(p.shifts[0]) == 4*(p.k-1)
	return p
}

// Len is the number of cells.
func (p *Projector) Len() int { return p.k }

// Last tells whether the cells are the last k (Gather is then a mask, and
// a key already projected onto a superset of the last k cells gathers
// alike).
func (p *Projector) Last() bool { return p.last }

// Gather is the board key's contents of the cells, in cell order, in the
// low 4k bits (the first cell most significant).
func (p *Projector) Gather(key uint64) uint64 {
	if p.last {
		return key & p.mask
	}
	var x uint64
	for i := 0; i < p.k; i++ {
		x = x<<4 | key>>p.shifts[i]&15
	}
	return x
}

// Scatter is Gather's inverse on the cells: the board key holding the
// gathered contents in their cells and 0 in every other cell.
func (p *Projector) Scatter(x uint64) uint64 {
	if p.last {
		return x & p.mask
	}
	var key uint64
	for i := p.k - 1; i >= 0; i-- {
		key |= (x & 15) << p.shifts[i]
		x >>= 4
	}
	return key
}
