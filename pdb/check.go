package pdb

import (
	"bytes"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"path/filepath"
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

// ReadAny loads a database file of any group, taking the board and the
// group from its file name (ParseFileName), then reads it as Load does: the
// header must hold that group, so a file renamed to another group's name
// is refused here as it is by a load.
func ReadAny(path string) (rows, cols int, group []uint8, table []uint8, step int, err error) {
	rows, cols, group, err = ParseFileName(filepath.Base(path))
	if err != nil {
		return 0, 0, nil, nil, 0, fmt.Errorf("%w %s: %w", ErrCorrupt, path, err)
	}
	table, step, err = Read(path, rows, cols, group)
	return rows, cols, group, table, step, err
}

// ParseFileName is the inverse of FileName: the board and group a
// database's file name says it holds ("4x4-9-10-11-12-13-14-15.pdb").
func ParseFileName(name string) (rows, cols int, group []uint8, err error) {
	fail := func() (int, int, []uint8, error) {
		return 0, 0, nil, fmt.Errorf("file name %q is not a database's: gapset names them ROWSxCOLS-TILE-TILE-....pdb (see gapset pdb build) and reads no other", name)
	}
	base, ok := strings.CutSuffix(name, ".pdb")
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
	if FileName(rows, cols, group) != name { // leading zeros, signs
		return fail()
	}
	return rows, cols, group, nil
}
