package pdb

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// namedGroups lists each group of the named partitions once.
func namedGroups(t *testing.T) []Partition {
	var out []Partition
	seen := map[string]bool{}
	for _, name := range Names() {
		nm := named[name]
		p, err := ParsePartition(name, nm.rows, nm.cols)
		require.NoError(t, err)
		for _, g := range p.Groups {
			if f := FileName(p.Rows, p.Cols, g); !seen[f] {
				seen[f] = true
				out = append(out, Partition{Name: f, Rows: p.Rows, Cols: p.Cols, Groups: [][]uint8{g}})
			}
		}
	}
	return out
}

// The known digests are those of the files the build writes, for every
// group of the named partitions, byte and compact: built again here up to
// 6-tile groups of the 4x4 board (a few seconds; not with -short), the 7-
// and 8-tile ones with GAPSET_SLOW=1 (minutes), or read from the compact
// files in the directory GAPSET_PDB_DIGESTS names when there (built by
// gapset pdb build --compact; the blank-aware 7-8 files too, built by
// gapset pdb build --blank); either also prints the table for digests.go:
//
//	GAPSET_SLOW=1 go test ./pdb -run TestKnownDigests -v -timeout 60m
func TestKnownDigests(t *testing.T) {
	dir, slow := os.Getenv("GAPSET_PDB_DIGESTS"), slowtest.On()
	groups := namedGroups(t)
	var lines []string
	for _, p := range groups {
		g := p.Groups[0]
		entries := Entries(p.Rows*p.Cols, len(g))
		for _, compact := range []bool{false, true} {
			_, ok := knownDigest(p.Rows, p.Cols, g, compact, false)
			assert.True(t, ok, "%s (compact %t) has a known digest", p.Name, compact)
		}
		var table []uint8
		var step int
		src := filepath.Join(dir, p.Name)
		small := entries <= 8<<20
		switch _, statErr := os.Stat(src); {
		case !small && dir != "" && statErr == nil:
			var err error
			table, step, err = Read(src, p.Rows, p.Cols, g)
			require.NoError(t, err)
		case slow || small && (dir != "" || !testing.Short()):
			var err error
			table, step, err = Build(context.Background(), p.Rows, p.Cols, g, 2, nil)
			require.NoError(t, err)
		default:
			continue
		}
		dir := t.TempDir()
		for _, compact := range []bool{false, true} {
			path := filepath.Join(dir, p.Name)
			if compact {
				geo, err := encode.NewGeometry(p.Rows, p.Cols)
				require.NoError(t, err)
				nib, err := compactTable(geo, g, table, 2)
				require.NoError(t, err)
				require.NoError(t, WriteCompact(path, p.Rows, p.Cols, g, nib, step))
			} else {
				require.NoError(t, Write(path, p.Rows, p.Cols, g, table, step))
			}
			b, err := os.ReadFile(path)
			require.NoError(t, err)
			sum := sha256.Sum256(b)
			name := p.Name
			if compact {
				name += " compact"
			}
			want, _ := knownDigest(p.Rows, p.Cols, g, compact, false)
			assert.Equal(t, want, hex.EncodeToString(sum[:]), name)
			lines = append(lines, fmt.Sprintf("\t%q: %q,", name, hex.EncodeToString(sum[:])))
		}
	}
	// the blank-aware files of the partitions blankDigested names: the
	// small ones built again, the 7-8 ones read from GAPSET_PDB_DIGESTS
	blanks := 0
	for _, name := range blankDigested {
		nm := named[name]
		p, err := ParsePartition(name, nm.rows, nm.cols)
		require.NoError(t, err)
		for _, g := range p.Groups {
			file := BlankFileName(p.Rows, p.Cols, g)
			want, known := knownDigest(p.Rows, p.Cols, g, true, true)
			if known {
				blanks++
			}
			small := BlankEntries(p.Rows*p.Cols, len(g)) <= 8<<20
			path := filepath.Join(dir, file)
			switch _, statErr := os.Stat(path); {
			case dir != "" && statErr == nil:
			case small:
				nib, err := BuildBlank(context.Background(), p.Rows, p.Cols, g, 2, nil)
				require.NoError(t, err)
				path = filepath.Join(t.TempDir(), file)
				require.NoError(t, WriteBlank(context.Background(), path, p.Rows, p.Cols, g, nib))
			default:
				continue
			}
			f, err := os.Open(path)
			require.NoError(t, err)
			h := sha256.New()
			_, err = io.Copy(h, f)
			f.Close()
			require.NoError(t, err)
			got := hex.EncodeToString(h.Sum(nil))
			if small {
				assert.True(t, known, "%s has a known digest", file)
			}
			if known {
				assert.Equal(t, want, got, file)
			}
			lines = append(lines, fmt.Sprintf("\t%q: %q,", file, got))
		}
	}
	assert.Len(t, knownDigests, 2*len(groups)+blanks, "no digest of a group outside the named partitions")
	if dir != "" || slow {
		slices.Sort(lines)
		t.Log("\n" + strings.Join(lines, "\n"))
	}
}
