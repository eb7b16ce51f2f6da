package bdd

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
)

// Order is a variable order: Bits[level] is the bit of the (projected) key
// that the BDD tests at that level, level 0 being the root's. Bit 0 is the
// key's least significant bit. A set over the last k cells of a board has
// 4k variables; the order is a permutation of the bits 0..4k-1.
type Order struct {
	Name string
	Bits []uint8
}

// Vars is the number of variables (4 per kept cell).
func (o Order) Vars() int { return len(o.Bits) }

// orderNames lists the named orders (NamedOrder says what each is).
var orderNames = []string{"natural", "lsb", "reverse", "reverse-lsb", "column", "column-reverse", "planes", "planes-reverse"}

// OrderNames lists the named variable orders.
func OrderNames() []string { return append([]string(nil), orderNames...) }

// NamedOrder returns the named variable order for sets over the last k
// cells of a rows x cols board:
//
//	natural         cells row-major, each cell's bits most significant first (the paper's)
//	lsb             cells row-major, bits least significant first
//	reverse         cells in reverse row-major order, bits most significant first
//	reverse-lsb     cells reversed, bits least significant first
//	column          kept cells column by column (top to bottom), most significant first
//	column-reverse  the column order reversed
//	planes          bit 3 of every cell (row-major), then bit 2 of every cell, ...
//	planes-reverse  bit planes with the cells reversed
func NamedOrder(name string, rows, cols, k int) (Order, error) {
	if rows < 1 || cols < 1 || rows > 16 || cols > 16 { // before rows*cols can wrap
		return Order{}, fmt.Errorf("bad order size: %d cells of a %dx%d board", k, rows, cols)
	}
	n := rows * cols
	if k < 1 || k > n || n > 16 {
		return Order{}, fmt.Errorf("bad order size: %d cells of a %dx%d board", k, rows, cols)
	}
	cells := make([]int, 0, k) // global cell numbers, row-major
	for c := n - k; c < n; c++ {
		cells = append(cells, c)
	}
	// nibble j of the projected key holds cell n-1-j: bits 4j..4j+3.
	bitOf := func(cell, b int) uint8 { return uint8(4*(n-1-cell) + b) }
	rev := func(s []int) []int {
		r := make([]int, len(s))
		for i, v := range s {
			r[len(s)-1-i] = v
		}
		return r
	}
	byCell := func(cs []int, lsbFirst bool) []uint8 {
		var bits []uint8
		for _, c := range cs {
			for i := 0; i < 4; i++ {
				b := 3 - i
				if lsbFirst {
					b = i
				}
				bits = append(bits, bitOf(c, b))
			}
		}
		return bits
	}
	planes := func(cs []int) []uint8 {
		var bits []uint8
		for b := 3; b >= 0; b-- {
			for _, c := range cs {
				bits = append(bits, bitOf(c, b))
			}
		}
		return bits
	}
	columnMajor := func() []int {
		cs := append([]int(nil), cells...)
		sort.SliceStable(cs, func(i, j int) bool { return cs[i]%cols < cs[j]%cols })
		return cs
	}
	var bits []uint8
	switch name {
	case "natural":
		bits = byCell(cells, false)
	case "lsb":
		bits = byCell(cells, true)
	case "reverse":
		bits = byCell(rev(cells), false)
	case "reverse-lsb":
		bits = byCell(rev(cells), true)
	case "column":
		bits = byCell(columnMajor(), false)
	case "column-reverse":
		bits = byCell(rev(columnMajor()), false)
	case "planes":
		bits = planes(cells)
	case "planes-reverse":
		bits = planes(rev(cells))
	default:
		return Order{}, fmt.Errorf("unknown variable order %q (choose %s)", name, strings.Join(orderNames, ", "))
	}
	return Order{Name: name, Bits: bits}, nil
}

// Validate checks that the order is a permutation of 0..Vars()-1 with at
// most 64 variables.
func (o Order) Validate() error {
	if len(o.Bits) == 0 || len(o.Bits) > 64 {
		return fmt.Errorf("order has %d variables (need 1..64)", len(o.Bits))
	}
	var seen uint64
	for _, b := range o.Bits {
		if int(b) >= len(o.Bits) || seen>>b&1 != 0 {
			return fmt.Errorf("order is not a permutation of the bits 0..%d", len(o.Bits)-1)
		}
		seen |= 1 << b
	}
	return nil
}

// permuter maps a projected key to its bit string in level order: level 0
// in bit L-1 of the result, so that ascending results are the keys sorted
// lexicographically along the order (what the builders need). It works a
// nibble at a time through tables.
type permuter struct {
	identity bool
	tab      [16][16]uint64
}

func newPermuter(o Order) *permuter {
	L := len(o.Bits)
	p := &permuter{identity: true}
	level := make([]int, L)
	for lv, b := range o.Bits {
		level[b] = lv
		if int(b) != L-1-lv {
			p.identity = false
		}
	}
	for j := 0; j < 16; j++ {
		for v := 0; v < 16; v++ {
			var out uint64
			for b := 0; b < 4; b++ {
				bit := 4*j + b
				if v>>b&1 != 0 && bit < L {
					out |= 1 << uint(L-1-level[bit])
				}
			}
			p.tab[j][v] = out
		}
	}
	return p
}

func (p *permuter) apply(key uint64) uint64 {
	if p.identity {
		return key
	}
	var out uint64
	for j := 0; key != 0; j++ {
		out |= p.tab[j][key&15]
		key >>= 4
	}
	return out
}

// MaxOrderFile bounds an order file: WriteOrderFile writes at most 64 key
// bits and their cells, under a kilobyte; comments may add some.
const MaxOrderFile = 64 << 10

// ParseOrderArg reads an order as a command names it: a named order, an
// inline list of key bits ("31,30,..."), or @FILE holding such a list (as
// WriteOrderFile writes it, at most MaxOrderFile bytes).
func ParseOrderArg(v string, rows, cols, k int) (Order, error) {
	path, ok := strings.CutPrefix(v, "@")
	if !ok {
		return ParseOrder(v, rows, cols, k)
	}
	b, err := infile.ReadAll(path, "an order file", MaxOrderFile)
	if err != nil {
		return Order{}, err
	}
	o, err := ParseOrder(string(b), rows, cols, k)
	if err != nil {
		return Order{}, fmt.Errorf("%s: %w", path, err)
	}
	return o, nil
}

// ParseOrder reads a variable order written as key bit numbers (level 0
// first) separated by spaces, commas or newlines, for a set of k cells of a
// rows x cols board; a named order is accepted too. In a file, lines
// starting with '#' are comments and a line "name NAME" names the order
// (otherwise it is called "custom").
func ParseOrder(text string, rows, cols, k int) (Order, error) {
	t := strings.TrimSpace(text)
	if slices.Contains(orderNames, t) {
		return NamedOrder(t, rows, cols, k)
	}
	o := Order{Name: "custom"}
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "name "); ok {
			o.Name = strings.TrimSpace(rest)
			if len(o.Name) == 0 || len(o.Name) > nameSize || strings.IndexByte(o.Name, 0) >= 0 {
				return Order{}, fmt.Errorf("order name %q: need 1..%d characters", o.Name, nameSize)
			}
			if slices.Contains(orderNames, o.Name) {
				// a named order's name promises its bits (the natural
				// order streams key files on that promise)
				o.Name += "*"
			}
			continue
		}
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' }) {
			v, err := strconv.ParseUint(f, 10, 8)
			if err != nil || v >= 64 {
				return Order{}, fmt.Errorf("order: %q is not a bit number 0..63", f)
			}
			o.Bits = append(o.Bits, uint8(v))
		}
	}
	if o.Vars() != 4*k {
		return Order{}, fmt.Errorf("order has %d bits, a set of %d cells needs %d", o.Vars(), k, 4*k)
	}
	if err := o.Validate(); err != nil {
		return Order{}, err
	}
	return o, nil
}

// Format writes the order as ParseOrder reads it, with the cell and bit of
// each level in a comment.
func (o Order) Format(rows, cols int) string {
	var b strings.Builder
	n := rows * cols
	fmt.Fprintf(&b, "# gapset variable order: key bits from the root's level down (bit 0 least significant)\n")
	fmt.Fprintf(&b, "# cells: ")
	for i, v := range o.Bits {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d.%d", n-1-int(v)/4, v%4)
	}
	fmt.Fprintf(&b, "  (cell.bit)\nname %s\n", o.Name)
	for i, v := range o.Bits {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d", v)
	}
	b.WriteByte('\n')
	return b.String()
}

// WriteOrderFile writes the order (Format) to path atomically.
func WriteOrderFile(path string, o Order, rows, cols int) error {
	return atomicfile.WriteFile(path, []byte(o.Format(rows, cols)))
}
