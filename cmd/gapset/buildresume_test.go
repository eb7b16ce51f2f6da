package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/internal/statedir/tamper"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stopBuild leaves in dir the state of `build --keys path --encoding enc
// --resume dir` stopped after its stop-th checkpoint.
func stopBuild(t *testing.T, path, dir string, enc bdd.Encoding, stop int) {
	t.Helper()
	h, err := keyset.ReadHeader(path)
	require.NoError(t, err)
	o, err := bdd.ParseOrderArg("natural", h.Rows, h.Cols, h.Cells)
	require.NoError(t, err)
	st, err := bdd.OpenState(dir, false)
	require.NoError(t, err)
	defer st.Close()
	seen := 0
	stopped := errors.New("stopped")
	_, err = bdd.BuildOutOfCore(path, h.Rows*h.Cols, h.Cells, bdd.KeysBuild{Order: o, Encoding: enc, Count: h.Count, ZDD: true},
		bdd.OutOfCore{Memory: 64 << 20, State: st, Checkpointed: func(bool, int) error {
			if seen++; seen == stop {
				return stopped
			}
			return nil
		}})
	require.ErrorIs(t, err, stopped)
}

// `build --resume DIR` run again after a stop (in the BDD's levels, in
// the ZDD count's) continues from the checkpoint, says so in one line, and
// writes the file a build never stopped writes (but for the build time and
// peak memory); the state goes. A state of another build (another
// encoding) or a damaged one is refused with exit 2 and one line and left
// as it was; --fresh starts over.
func TestBuildResumes(t *testing.T) {
	dir := t.TempDir()
	kpath := filepath.Join(dir, "g2.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 2}, gapKeys3x3(t, 2)))
	a := filepath.Join(dir, "a.bdd")
	code, _, stderr := runCmd(t, "", "build", "-q", "--keys", kpath, "--encoding", "ranks", "--out-of-core", "--out", a)
	require.Equal(t, 0, code, stderr)
	da, err := os.ReadFile(a)
	require.NoError(t, err)
	ia, err := bdd.ReadInfo(a)
	require.NoError(t, err)
	state := filepath.Join(dir, "state")
	for _, stop := range []int{1, 4, 16} { // the bottom pass, a level, the ZDD's levels (12 checkpoints each: the bottom pass of 25 levels, 11 levels)
		stopBuild(t, kpath, state, bdd.Ranks, stop)
		b := filepath.Join(dir, "b.bdd")
		code, stdout, stderr := runCmd(t, "", "build", "--keys", kpath, "--encoding", "ranks", "--resume", state, "--out", b)
		require.Equal(t, 0, code, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "gapset: resuming the out-of-core build from "+state), stderr)
		if stop > 12 {
			assert.Contains(t, stderr, "the BDD done; the ZDD count's build: levels 35-", stderr)
		}
		assert.Contains(t, stdout, "bottom_levels=25")
		db, err := os.ReadFile(b)
		require.NoError(t, err)
		ib, err := bdd.ReadInfo(b)
		require.NoError(t, err)
		assert.True(t, ib.OutOfCore)
		want := ia
		want.BuildTime, ib.BuildTime, want.PeakMemory, ib.PeakMemory = 0, 0, 0, 0
		assert.Equal(t, want, ib, "stop %d", stop)
		assert.Equal(t, payload(da, ia), payload(db, ib), "stop %d: same payload", stop)
		assert.NoDirExists(t, state)
	}

	stopBuild(t, kpath, state, bdd.Ranks, 3)
	manifest := filepath.Join(state, "manifest.json")
	before, err := os.ReadFile(manifest)
	require.NoError(t, err)
	c := filepath.Join(dir, "c.bdd")
	code, _, stderr = runCmd(t, "", "build", "-q", "--keys", kpath, "--encoding", "cells", "--resume", state, "--out", c)
	assert.Equal(t, 2, code, stderr)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	assert.Contains(t, stderr, "encoding ranks")
	assert.Contains(t, stderr, "--fresh")
	damaged := append([]byte(nil), before...)
	damaged[len(damaged)/2] ^= 0x10
	require.NoError(t, os.WriteFile(manifest, damaged, 0o644))
	code, _, stderr = runCmd(t, "", "build", "-q", "--keys", kpath, "--encoding", "ranks", "--resume", state, "--out", c)
	assert.Equal(t, 2, code, stderr)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	assert.Contains(t, stderr, "damaged")
	after, err := os.ReadFile(manifest)
	require.NoError(t, err)
	assert.Equal(t, damaged, after, "a refused state stays as it was")
	assert.NoFileExists(t, c)
	code, _, stderr = runCmd(t, "", "build", "--keys", kpath, "--encoding", "ranks", "--resume", state, "--fresh", "--out", c)
	require.Equal(t, 0, code, stderr)
	assert.NotContains(t, stderr, "resuming")
	dc, err := os.ReadFile(c)
	require.NoError(t, err)
	ic, err := bdd.ReadInfo(c)
	require.NoError(t, err)
	assert.Equal(t, payload(da, ia), payload(dc, ic))
	assert.NoDirExists(t, state)

	for _, args := range [][]string{
		{"--fresh"},
		{"--resume", state, "--tmp", dir},
		{"--resume", state, "--out-of-core=false"},
		{"--resume", state, "--order", "reverse"},
	} {
		args = append([]string{"build", "--keys", kpath, "--out", filepath.Join(dir, "d.bdd")}, args...)
		code, _, stderr := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, stderr)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "one-line error for %v: %q", args, stderr)
	}
	assert.NoFileExists(t, filepath.Join(dir, "d.bdd"))
}

// A --resume path that is a symlink, a file or a directory gapset did not
// make is refused with exit 2 and one line, with and without --fresh, and
// nothing in it (or behind it) is removed, replaced or added.
func TestBuildRefusesForeignState(t *testing.T) {
	kpath := filepath.Join(t.TempDir(), "g0.keys")
	require.NoError(t, keyset.WriteFile(kpath, keyset.Header{Rows: 3, Cols: 3, Cells: 9, Gap: 0}, gapKeys3x3(t, 0)))
	tamper.RefusesForeign(t, "state", func(t *testing.T, out string, fresh bool) (int, string) {
		args := []string{"build", "-q", "--keys", kpath, "--resume", filepath.Join(out, "state"), "--out", filepath.Join(out, "x.bdd")}
		if fresh {
			args = append(args, "--fresh")
		}
		code, _, errs := runCmd(t, "", args...)
		assert.NoFileExists(t, filepath.Join(out, "x.bdd"))
		return code, errs
	})
}
