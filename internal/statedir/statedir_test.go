package statedir

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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

// Any edit of a sealed manifest's payload fails its checksum; a manifest
// of another format (an older one, without an envelope) is refused; all
// as damage with the --fresh hint. Indentation is not part of the seal.
func TestSealUnseal(t *testing.T) {
	type m struct {
		Step int  `json:"step"`
		Done bool `json:"done"`
	}
	b, err := Seal(4, m{Step: 24})
	require.NoError(t, err)
	var out m
	require.NoError(t, Unseal("d", "manifest.json", b, 4, &out))
	assert.Equal(t, m{Step: 24}, out)
	var e envelope
	require.NoError(t, json.Unmarshal(b, &e))
	var compact bytes.Buffer
	require.NoError(t, json.Compact(&compact, b))
	require.NoError(t, Unseal("d", "manifest.json", compact.Bytes(), 4, &out), "whitespace is no damage")
	for _, bad := range [][]byte{
		[]byte(`{"format": 4, "checksum": "` + e.Sum + `", "payload": {"step": 24, "done": true}}`),
		[]byte(`{"format": 4, "checksum": "` + e.Sum + `", "payload": {"step": 25, "done": false}}`),
		[]byte(`{"format": 4, "checksum": "` + e.Sum + `", "payload": {"step": 24, "done": false, "more": 1}}`),
		[]byte(`{"format": 4, "payload": {"step": 24, "done": false}}`),
		[]byte(`{"format": 4, "checksum": "` + e.Sum + `"}`),
		[]byte(`{"format": 3, "step": 24, "done": false, "checksum": "` + e.Sum + `"}`),
		[]byte(`{"format": 5, "checksum": "` + e.Sum + `", "payload": {"step": 24, "done": false}}`),
		[]byte(``),
	} {
		var out m
		err := Unseal("d", "manifest.json", bad, 4, &out)
		assert.ErrorIs(t, err, ErrDamaged, string(bad))
		assert.ErrorContains(t, err, "--fresh", string(bad))
		assert.Equal(t, m{}, out, "nothing read from a refused manifest: %s", bad)
	}
}

// A second lock on a held state directory is refused at once while the
// holder lives; released, it is taken.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	unlock, err := Lock(dir, "checkpoint")
	require.NoError(t, err)
	_, err = Lock(dir, "checkpoint")
	if runtime.GOOS != "windows" {
		assert.ErrorIs(t, err, ErrBusy)
		assert.ErrorContains(t, err, fmt.Sprintf("checkpoint %s is in use by process %d", dir, os.Getpid()))
	}
	unlock()
	unlock, err = Lock(dir, "checkpoint")
	require.NoError(t, err)
	unlock()
	assert.True(t, Keep(LockName), "clearing the state keeps the lock")
}

// The disk count: the peak is the most ever counted at once, and an
// earlier process's peak is kept.
func TestDisk(t *testing.T) {
	var d Disk
	d.Add(10)
	d.Add(5)
	d.Remove(10)
	assert.EqualValues(t, 5, d.Now())
	assert.EqualValues(t, 15, d.Peak())
	d.Observe(12)
	assert.EqualValues(t, 15, d.Peak())
	d.Observe(20)
	d.Resume(17)
	assert.EqualValues(t, 20, d.Peak())
	d.Resume(30)
	assert.EqualValues(t, 30, d.Peak())
}

// The layout rules: level j subtracts the lower levels' layers of its
// Manhattan distance; a layer is kept while a later step reads it.
func TestRules(t *testing.T) {
	assert.Equal(t, 3, LowerStep(1, 2, 5))
	assert.Equal(t, 1, LowerStep(0, 2, 5))
	assert.Equal(t, -1, LowerStep(0, 2, 3))
	assert.True(t, Needed(3, 0, 4, 4, false), "the newest layer feeds the next step")
	assert.True(t, Needed(3, 0, 1, 4, false), "level 0 at step 1 is subtracted by level 2 at step 5")
	assert.False(t, Needed(3, 0, 1, 5, false))
	assert.True(t, Needed(3, 0, 1, 5, true), "the whole board needs every layer")
	assert.False(t, Needed(3, 2, 3, 4, false), "the top level is subtracted by none")
	assert.Equal(t, "L2-7.p003", Part(Layer(2, 7), 3))
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
