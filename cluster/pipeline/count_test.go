package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A layer part named twice by a manifest (forged: its checksum made
// to fit) makes the layers' count differ from the whole-board file's: the
// run is refused as damaged before that file takes its name, as gapset
// enumerate refuses it, never written with a wrong summary.
func TestWholeBoardCountChecked(t *testing.T) {
	l := gapset.Layout{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9, 5}}
	base := t.TempDir()
	_, err := Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: base, FailAt: "10/1/1"})
	require.ErrorContains(t, err, "injected failure")
	work := filepath.Join(base, WorkName)
	path := filepath.Join(work, statedir.StepDir(9), manifestName)
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var m manifest
	require.NoError(t, statedir.Unseal(work, path, b, manifestFormat, &m))
	require.NotEmpty(t, m.Layers)
	m.Layers = append(m.Layers, m.Layers[0])
	b, err = statedir.Seal(manifestFormat, &m)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	out := t.TempDir()
	_, err = Enumerate(context.Background(), Options{Layout: l, OutDir: out, WorkDir: base})
	require.ErrorIs(t, err, gapset.ErrDamaged)
	assert.ErrorContains(t, err, "--fresh")
	assert.NoFileExists(t, l.Config(out).OutputPath(9), "no whole-board file with a count other than the layers'")
}

// A step manifest of the older format (flat, format 2) is refused as
// damaged with the --fresh hint, never read; the work directory is left.
func TestOlderManifestRefused(t *testing.T) {
	l := gapset.Layout{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9}}
	base := t.TempDir()
	work := filepath.Join(base, WorkName)
	_, err := statedir.Open(work, workKind)
	require.NoError(t, err)
	require.NoError(t, os.Mkdir(filepath.Join(work, statedir.StepDir(0)), 0o755))
	old := []byte(`{"format": 2, "layout": {"rows": 3, "cols": 3, "gap": 2}, "step": 0, "layers": [], "checksum": "crc32c:00000000"}`)
	path := filepath.Join(work, statedir.StepDir(0), manifestName)
	require.NoError(t, os.WriteFile(path, old, 0o644))
	_, err = Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: base})
	require.ErrorIs(t, err, gapset.ErrDamaged)
	assert.ErrorContains(t, err, "format 2")
	assert.ErrorContains(t, err, "give --fresh")
	assert.NotContains(t, err.Error(), "\n")
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, old, b, "left as it was")
}
