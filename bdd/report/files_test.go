package report

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Files writes a row a BDD file in the format asked, with its nodes per
// level and a chart when asked; it refuses (ErrInput) a missing or
// damaged file and a chart of no BDD file.
func TestFiles(t *testing.T) {
	dir := t.TempDir()
	order, err := bdd.NamedOrder("natural", 2, 3, 3)
	require.NoError(t, err)
	d, err := bdd.Build([]uint64{0x123, 0x124, 0x345}, order, false)
	require.NoError(t, err)
	path := filepath.Join(dir, "g.bdd")
	_, err = bdd.Save(path, d, bdd.Meta{Rows: 2, Cols: 3, Cells: 3, Gap: 0})
	require.NoError(t, err)
	in, err := bdd.ReadInfo(path)
	require.NoError(t, err)

	var got, want bytes.Buffer
	chart := filepath.Join(dir, "levels.png")
	require.NoError(t, Files(&got, []string{path}, Options{Format: "csv", Levels: true, Chart: chart}))
	levels, _, err := bdd.LevelNodes(path)
	require.NoError(t, err)
	row := NewRow(path, in)
	row.LevelNodes = levels
	require.NoError(t, Write(&want, "csv", []Row{row}))
	assert.Equal(t, want.String(), got.String())
	png, err := os.ReadFile(chart)
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG", string(png[:4]))

	for _, c := range []struct {
		paths []string
		opt   Options
	}{
		{[]string{filepath.Join(dir, "none.bdd")}, Options{Format: "md"}},
		{[]string{chart}, Options{Format: "md"}},
		{nil, Options{Format: "md", Chart: filepath.Join(dir, "x.png")}},
	} {
		err := Files(&got, c.paths, c.opt)
		assert.ErrorIs(t, err, ErrInput, "%v", c.paths)
	}
}
