package pdb

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/placement"
)

// checkSampleCount is how many placements Check tests for the Manhattan
// bound and the step: a few milliseconds, cheap enough for every load.
const checkSampleCount = 4096

// Check runs the load-time checks of a group's table, which catch damage a
// recomputed checksum hides and writer bugs: the goal placement (every
// group tile home) is the only entry 0; a sample of entries is at least the
// group tiles' Manhattan distance (each of their moves moves one of them
// one cell); and along every move of a group tile from a sample of
// placements the value changes by at most step. Sampling is seeded by the
// table's size, so a given file always gets the same answer.
func Check(rows, cols int, group []uint8, table []uint8, step int) error {
	return check(rows, cols, group, table, step, -1)
}

// check is Check with the count of 0 entries already known (zeros >= 0:
// counted while the table was read).
func check(rows, cols int, group []uint8, table []uint8, step, zeros int) error {
	if len(table) != Entries(rows*cols, len(group)) {
		return fmt.Errorf("%w: %d entries, want %d", ErrCorrupt, len(table), Entries(rows*cols, len(group)))
	}
	if len(group) < rows*cols-1 {
		if zeros < 0 {
			zeros = bytes.Count(table, []byte{0})
		}
		if zeros != 1 {
			return fmt.Errorf("%w: %d entries are 0; only the goal placement's may be", ErrCorrupt, zeros)
		}
	}
	return checkSamples(rows, cols, group, step, func(r int, _ []uint8) int { return int(table[r]) })
}

// checkCompact is Check for a compact table (see Compact) of entries
// placements: the samples are decoded with their placements' distances.
func checkCompact(rows, cols int, group []uint8, nib []uint8, entries, step int) error {
	if len(nib) != (entries+1)/2 {
		return fmt.Errorf("%w: %d bytes of compact entries, want %d", ErrCorrupt, len(nib), (entries+1)/2)
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return err
	}
	return checkSamples(rows, cols, group, step, func(r int, pos []uint8) int {
		m := 0
		for i, c := range pos {
			m += int(geo.Dist[group[i]][c])
		}
		return m + 2*int(nibble(nib, r))
	})
}

// checkSamples runs Check's tests on the goal and a sample of placements,
// reading values through value(rank, placement).
func checkSamples(rows, cols int, group []uint8, step int, value func(r int, pos []uint8) int) error {
	n, k := rows*cols, len(group)
	entries := Entries(n, k)
	home := make([]uint8, k)
	for i, t := range group {
		home[i] = t - 1
	}
	goal := placement.Rank(home, n)
	if v := value(goal, home); v != 0 {
		return fmt.Errorf("%w: the goal placement's entry is %d, not 0", ErrCorrupt, v)
	}
	if k >= n-1 {
		return nil // every tile in the group: half the placements are unreachable and hold 0
	}
	g := newGrid(rows, cols)
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return err
	}
	rng := rand.New(rand.NewPCG(uint64(entries), uint64(k)))
	pos := make([]uint8, k)
	for s := 0; s < checkSampleCount; s++ {
		r := rng.IntN(entries)
		if s == 0 {
			r = goal
		}
		used := placement.Unrank(r, pos, n)
		v := value(r, pos)
		md := 0
		for i, c := range pos {
			md += int(geo.Dist[group[i]][c])
		}
		if v < md {
			return fmt.Errorf("%w: entry %d is %d, below the group's Manhattan distance %d", ErrCorrupt, r, v, md)
		}
		for i, c := range pos {
			for to := g.nb[c] &^ used; to != 0; to &= to - 1 {
				pos[i] = uint8(bits.TrailingZeros32(to))
				w := value(placement.Rank(pos, n), pos)
				pos[i] = c
				if w-v > step || v-w > step {
					return fmt.Errorf("%w: one move changes entry %d (%d) by %d, more than the stored step %d", ErrCorrupt, r, v, max(w-v, v-w), step)
				}
			}
		}
	}
	return nil
}

// ReadAny loads a database file of any group, taking the board, the group
// and the kind from its file name (ParseFileName), then reads it as Load
// does: the header must hold that group, so a file renamed to another
// group's name is refused here as it is by a load. A blank-aware file's
// table is its compact entries (BuildBlank's coding), another's a byte per
// placement.
func ReadAny(path string) (rows, cols int, group []uint8, blank bool, table []uint8, step int, err error) {
	rows, cols, group, blank, err = ParseFileName(filepath.Base(path))
	if err != nil {
		return 0, 0, nil, false, nil, 0, fmt.Errorf("%w %s: %w", ErrCorrupt, path, err)
	}
	if blank {
		table, err = ReadBlank(path, rows, cols, group)
		return rows, cols, group, true, table, 1, err
	}
	table, step, err = Read(path, rows, cols, group)
	return rows, cols, group, false, table, step, err
}

// ParseFileName is the inverse of FileName and BlankFileName: the board
// and group a database's file name says it holds
// ("4x4-9-10-11-12-13-14-15.pdb"), and whether it is blank-aware
// ("4x4-9-10-11-12-13-14-15-blank.pdb").
func ParseFileName(name string) (rows, cols int, group []uint8, blank bool, err error) {
	fail := func() (int, int, []uint8, bool, error) {
		return 0, 0, nil, false, fmt.Errorf("file name %q is not a database's: gapset names them ROWSxCOLS-TILE-TILE-....pdb or ROWSxCOLS-TILE-...-blank.pdb (see gapset pdb build) and reads no other", name)
	}
	base, blank := strings.CutSuffix(name, blankSuffix)
	ok := blank
	if !blank {
		base, ok = strings.CutSuffix(name, ".pdb")
	}
	if !ok {
		return fail()
	}
	fields := strings.Split(base, "-")
	rs, cs, ok := strings.Cut(fields[0], "x")
	if !ok || len(fields) < 2 {
		return fail()
	}
	if rows, err = strconv.Atoi(rs); err != nil {
		return fail()
	}
	if cols, err = strconv.Atoi(cs); err != nil {
		return fail()
	}
	if encode.CheckSize(rows, cols) != nil || len(fields)-1 >= rows*cols {
		return fail()
	}
	var seen uint32
	for _, f := range fields[1:] {
		t, err := strconv.Atoi(f)
		if err != nil || t < 1 || t >= rows*cols || seen&(1<<t) != 0 {
			return fail()
		}
		seen |= 1 << t
		group = append(group, uint8(t))
	}
	want := FileName(rows, cols, group)
	if blank {
		want = BlankFileName(rows, cols, group)
	}
	if want != name { // leading zeros, signs
		return fail()
	}
	return rows, cols, group, blank, nil
}

// checkStored runs the load-time checks of a compact or blank-aware table
// (blank) of entries entries.
func checkStored(rows, cols int, group []uint8, nib []uint8, entries, step int, blank bool) error {
	if blank {
		return checkBlank(rows, cols, group, nib, entries)
	}
	return checkCompact(rows, cols, group, nib, entries, step)
}

// checkBlank is Check for a blank-aware table (BuildBlank's coding), whose
// values are pinned down by local rules: with the group's tiles home, the
// entries of the blank's home region are 0 and the others are not; and
// from a sample of entries, a move of another tile (the blank stays in its
// region) keeps the value and a move of a group tile changes it by exactly
// one. (The coding itself makes every value at least the group's
// Manhattan distance and of its parity.)
func checkBlank(rows, cols int, group []uint8, nib []uint8, entries int) error {
	n, k := rows*cols, len(group)
	if k == 0 || k > n-3 || entries != BlankEntries(n, k) {
		return fmt.Errorf("%w: a blank-aware table of %d entries for a group of %d tiles on %d cells", ErrCorrupt, entries, k, n)
	}
	if len(nib) != (entries+1)/2 {
		return fmt.Errorf("%w: %d bytes of blank-aware entries, want %d", ErrCorrupt, len(nib), (entries+1)/2)
	}
	geo, err := encode.NewGeometry(rows, cols)
	if err != nil {
		return err
	}
	g := newGrid(rows, cols)
	pos := make([]uint8, k)
	value := func(used uint32, blank int) int {
		var u uint32
		r, m := 0, 0
		for i, c := range pos {
			r, u = placement.Step(r, u, c, n-i)
			m += int(geo.Dist[group[i]][c])
		}
		return m + 2*int(nibble(nib, r*(n-k)+placement.Digit(used, uint(blank))))
	}
	var home uint32
	for i, t := range group {
		pos[i] = t - 1
		home |= 1 << (t - 1)
	}
	goal := g.region(n-1, g.all&^home)
	for c := 0; c < n; c++ {
		if home&(1<<c) != 0 {
			continue
		}
		if v := value(home, c); (v == 0) != (goal&(1<<c) != 0) {
			return fmt.Errorf("%w: with the group home and the blank on cell %d the entry is %d", ErrCorrupt, c, v)
		}
	}
	rng := rand.New(rand.NewPCG(uint64(entries), uint64(k)))
	for s := 0; s < checkSampleCount; s++ {
		r := rng.IntN(entries)
		used := placement.Unrank(r/(n-k), pos, n)
		blank := placement.SelectFree(used, r%(n-k))
		v := value(used, blank)
		for to := g.nb[blank]; to != 0; to &= to - 1 {
			c := bits.TrailingZeros32(to)
			i := slices.Index(pos, uint8(c))
			if i < 0 { // another tile: the blank moves within its region
				if w := value(used, c); w != v {
					return fmt.Errorf("%w: entry %d is %d, and %d with the blank moved from cell %d to %d among the free cells", ErrCorrupt, r, v, w, blank, c)
				}
				continue
			}
			pos[i] = uint8(blank)
			w := value(used^(1<<c|1<<blank), c)
			pos[i] = uint8(c)
			if w-v != 1 && v-w != 1 {
				return fmt.Errorf("%w: entry %d is %d, and %d after its tile on cell %d moved: not one apart", ErrCorrupt, r, v, w, c)
			}
		}
	}
	return nil
}
