package gapset

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// FuzzRunDecoder feeds arbitrary bytes to the run decoder as a 3x3 layer's
// run (raw, key differences or rank codes, with any key count) and
// expands what it decodes as a step would: errors are fine, panics are
// not (one bit flipped in a layer's run once gave an index out of range
// in expandRaise), and every key that reaches the move tables is a board.
func FuzzRunDecoder(f *testing.F) {
	g, err := newGeometry(3, 3)
	require.NoError(f, err)
	dir := f.TempDir()
	for _, c := range []coding{{}, {delta: true}, {delta: true, cells: 9}} {
		keys := []uint64{g.goal}
		g.successors(g.goal, func(k uint64, _ bool) { keys = append(keys, k) })
		sortKeys(keys, nil, 36, 1)
		r, err := writeRun(filepath.Join(dir, "seed"), keys, c)
		require.NoError(f, err)
		b, err := os.ReadFile(r.path)
		require.NoError(f, err)
		mode := uint8(0)
		if c.delta {
			mode = 1 + uint8(min(c.cells, 1))
		}
		f.Add(b, uint16(len(keys)), mode)
		flipped := append([]byte(nil), b...)
		flipped[len(b)/2] ^= 0x10
		f.Add(flipped, uint16(len(keys)), mode)
	}
	f.Fuzz(func(t *testing.T, b []byte, n uint16, mode uint8) {
		path := filepath.Join(t.TempDir(), "run")
		require.NoError(t, os.WriteFile(path, b, 0o644))
		r := run{path: path, n: int64(n), bytes: int64(len(b))}
		switch mode % 3 {
		case 1:
			r.delta = true
		case 2:
			r.delta, r.cells = true, 9
		}
		out := make([]uint64, 0, 4*64)
		_ = forEachChunk(r, 7, func(keys []uint64) error {
			if err := g.checkBoards(keys); err != nil {
				return err
			}
			out = out[:cap(out)]
			for len(keys) > 0 {
				part := keys[:min(len(keys), 64)]
				keys = keys[len(part):]
				g.expandRaise(part, out)
				g.expandLower(part, out)
			}
			return nil
		})
	})
}
