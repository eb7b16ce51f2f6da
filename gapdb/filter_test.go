package gapdb

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/internal/placement"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bruteFilter is the filter by its definition: every placement unranked,
// its last f values read as the index, the smallest entry kept.
func bruteFilter(d *DB, f int) map[uint64]int {
	n, k := d.Rows*d.Cols, len(d.Cells)
	out := map[uint64]int{}
	pos := make([]uint8, k)
	for x := uint64(0); x < d.Entries; x++ {
		placement.Unrank(int(x), pos, n)
		var m uint64
		for _, v := range pos[k-f:] {
			m = m<<4 | uint64(v)
		}
		if v, ok := out[m]; !ok || d.At(x) < v {
			out[m] = d.At(x)
		}
	}
	return out
}

// The filter built from the levels' keys holds, for every pattern of the
// last f cells, the smallest entry over the patterns extending it (by
// brute force over every placement), L where no placement has it; the
// filter computed from the table (verify's) is the same; and a board's
// Floor is at most its entry.
func TestFilterIsTheSmallestExtension(t *testing.T) {
	for _, c := range []struct {
		tr    *truth
		cells []int
		f     []int
	}{
		{truth3x3(), lastCells(9, 5), []int{1, 2, 3, 4}},
		{truth3x3(), []int{0, 2, 4, 6, 8}, []int{2}},
		{truth3x3(), lastCells(9, 9), []int{3, 6}},
		{truth2x4(), []int{1, 2, 5, 6, 7}, []int{3}},
	} {
		for _, f := range c.f {
			d := buildFiltered(t, c.tr.rows, c.tr.cols, c.cells, c.tr.levels, f)
			want := bruteFilter(d, f)
			low := 0
			for m := uint64(0); m < 1<<(4*f); m++ {
				w, ok := want[m]
				if !ok {
					w = d.Levels
				}
				if got := int(nibble(d.Filter(), m)); got != w {
					require.Equal(t, w, got, "cells %v f %d index %x", c.cells, f, m)
				}
				if ok && w < d.Levels {
					low++
				}
			}
			assert.Positive(t, low)
			sf, counts, _ := scan(d.Table(), &d.Header)
			assert.Equal(t, d.Filter(), sf)
			assert.Equal(t, d.Counts, counts)
			require.NoError(t, d.Recount())
			for key := range c.tr.dist {
				if d.Floor(key) > d.Value(key) {
					require.LessOrEqual(t, d.Floor(key), d.Value(key), "%x", key)
				}
			}
		}
	}
}

// The filter changes no node: with and without it the searches expand the
// same nodes (with and without the transpose), and it answers questions
// that then read nothing from the table.
func TestFilterSameNodes(t *testing.T) {
	tr := truth3x3()
	for _, transpose := range []bool{false, true} {
		var res [2][2]int64 // expanded, reads; without and with the filter
		filtered := int64(0)
		for i, f := range []int{0, 3} {
			d := buildFiltered(t, 3, 3, lastCells(9, 6), tr.levels, f)
			h := Heuristic{DBs: []*DB{d}, Levels: len(tr.levels), Transpose: transpose}
			for _, bd := range boards(t, tr, 30, 3) {
				r := solve(t, bd, h)
				require.Equal(t, tr.dist[bd.Key()], r.Length)
				res[i][0] += r.Expanded
				res[i][1] += r.Counters["db_reads"]
				if f > 0 {
					filtered += r.Counters["filtered"]
				}
			}
		}
		assert.Equal(t, res[0][0], res[1][0], "expanded, transpose %v", transpose)
		assert.Less(t, res[1][1], res[0][1], "table reads, transpose %v", transpose)
		assert.Positive(t, filtered)
	}
}

// A database without a filter is written as version 1, the format before
// filters, and one with a filter as version 2; a filter byte changed is
// found at load by its chunk's CRC, and, with the CRCs made to match, by
// verify's recount.
func TestFilterVersionsAndDamage(t *testing.T) {
	tr := truth3x3()
	d0 := build(t, 3, 3, lastCells(9, 1), tr.levels) // testFilter(1) = 0
	d2 := build(t, 3, 3, lastCells(9, 6), tr.levels)
	for _, c := range []struct {
		d *DB
		v uint16
	}{{d0, 1}, {d2, 2}} {
		raw, err := os.ReadFile(c.d.Path)
		require.NoError(t, err)
		assert.Equal(t, c.v, binary.LittleEndian.Uint16(raw[8:]))
	}
	raw, err := os.ReadFile(d2.Path)
	require.NoError(t, err)
	require.Equal(t, int(d2.TableOff+d2.TableLen+d2.FilterLen), len(raw))
	off := int(d2.TableOff + d2.TableLen + 5)
	bad := append([]byte(nil), raw...)
	bad[off] ^= 0x10
	p := filepath.Join(t.TempDir(), "bad.gapdb")
	require.NoError(t, os.WriteFile(p, bad, 0o644))
	_, err = Open(p)
	assert.ErrorIs(t, err, ErrFormat)

	// the chunk CRC and the header's CRC made to match the damage
	h := d2.Header
	h.ChunkCRCs = chunkCRCs(bad[h.TableOff:h.TableOff+h.TableLen], bad[h.TableOff+h.TableLen:], h.ChunkLog)
	copy(bad, h.encode())
	require.NoError(t, os.WriteFile(p, bad, 0o644))
	d, err := Open(p)
	require.NoError(t, err)
	defer d.Close()
	assert.ErrorIs(t, d.Recount(), ErrFormat)
	assert.ErrorContains(t, d.Recount(), "filter")
}
