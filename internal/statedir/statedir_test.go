package statedir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A new state directory is made with its marker; one made before is
// accepted; a symlink, a file, a directory without the marker or with
// another kind's are refused, and left as they were.
func TestOpen(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "state")
	made, err := Open(dir, "checkpoint")
	require.NoError(t, err)
	assert.True(t, made)
	assert.FileExists(t, filepath.Join(dir, MarkerName))
	made, err = Open(dir, "checkpoint")
	require.NoError(t, err)
	assert.False(t, made)
	_, err = Open(dir, "work directory")
	assert.ErrorIs(t, err, ErrForeign)

	link := filepath.Join(base, "link")
	require.NoError(t, os.Symlink(dir, link))
	file := filepath.Join(base, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	bare := filepath.Join(base, "bare")
	require.NoError(t, os.Mkdir(bare, 0o755))
	for _, p := range []string{link, file, bare} {
		_, err := Open(p, "checkpoint")
		assert.ErrorIs(t, err, ErrForeign, p)
		assert.ErrorContains(t, err, "--fresh does not remove it", p)
	}
	entries, err := os.ReadDir(bare)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing written in a refused directory")
	left, err := filepath.Glob(filepath.Join(base, ".*"))
	require.NoError(t, err)
	assert.Empty(t, left, "no temporary left")
}

// Any edit of a sealed manifest's values fails its checksum.
func TestSealUnseal(t *testing.T) {
	type m struct {
		Step int    `json:"step"`
		Done bool   `json:"done"`
		Sum  string `json:"checksum"`
	}
	in := m{Step: 24}
	b, err := Seal(&in, &in.Sum)
	require.NoError(t, err)
	var out m
	require.NoError(t, Unseal("d", "manifest.json", b, &out, &out.Sum))
	assert.Equal(t, 24, out.Step)
	for _, bad := range [][]byte{
		[]byte(`{"step": 24, "done": true, "checksum": "` + in.Sum + `"}`),
		[]byte(`{"step": 25, "done": false, "checksum": "` + in.Sum + `"}`),
		[]byte(`{"step": 24, "done": false}`),
		[]byte(``),
	} {
		var out m
		err := Unseal("d", "manifest.json", bad, &out, &out.Sum)
		assert.ErrorIs(t, err, ErrDamaged, string(bad))
		assert.ErrorContains(t, err, "--fresh", string(bad))
	}
}

// CheckFile tells a file's size and checksum from the recorded ones.
func TestCheckFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run")
	require.NoError(t, os.WriteFile(p, []byte("keys"), 0o644))
	n, sum, err := FileSum(p)
	require.NoError(t, err)
	assert.EqualValues(t, 4, n)
	assert.Equal(t, Update(0, []byte("keys")), sum)
	require.NoError(t, CheckFile("d", p, 4, sum))
	assert.ErrorIs(t, CheckFile("d", p, 5, sum), ErrDamaged)
	assert.ErrorIs(t, CheckFile("d", p, 4, sum^1), ErrDamaged)
	assert.ErrorIs(t, CheckFile("d", p+"x", 4, sum), ErrDamaged)
}
