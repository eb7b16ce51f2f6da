package main

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyFiles reads the .keys files of dir by name.
func keyFiles(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	m, _ := filepath.Glob(filepath.Join(dir, "*.keys"))
	for _, p := range m {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		out[filepath.Base(p)] = b
	}
	return out
}

// An enumeration killed with SIGKILL at random moments and started again
// with the same command, as often as it takes, writes the same bytes as a
// run never stopped, says on stderr that it resumed, and leaves neither a
// checkpoint nor a temporary behind. The 3x4 board goes to gap 2 by
// default (a third of gap 4's work), to gap 4 with GAPSET_SLOW=1.
func TestEnumerateKilledAndResumed(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds the binary and kills enumerations")
	}
	bin := gapsetBinary(t)
	gap34 := "2"
	if slowtest.On() {
		gap34 = "4"
	}
	for _, board := range []struct{ rows, cols, gap, cells string }{
		{"3", "3", "6", "9,5"},
		{"3", "4", gap34, "12,8"},
	} {
		args := func(dir string) []string {
			return []string{"enumerate", "-q", "--rows", board.rows, "--cols", board.cols, "--gap", board.gap, "--cells", board.cells,
				"--packed", "--memory", "64", "--checkpoint-every", "0", "--out-dir", dir}
		}
		ref := t.TempDir()
		// The reference enumerates every configuration; the runs killed are
		// canonical on the square board (the default).
		out, err := exec.Command(bin, append(args(ref), "--transpose=false")...).CombinedOutput()
		require.NoError(t, err, string(out))
		want := keyFiles(t, ref)
		require.Len(t, want, 2)

		// Time one run to spread the kills over it.
		dir := t.TempDir()
		start := time.Now()
		require.NoError(t, exec.Command(bin, args(t.TempDir())...).Run())
		span := time.Since(start)
		rng := rand.New(rand.NewPCG(uint64(len(board.cells)), 11))
		kills, resumed := 0, 0
		for attempt := 0; ; attempt++ {
			require.Less(t, attempt, 60, "no progress after %d kills", kills)
			cmd := exec.Command(bin, args(dir)...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			require.NoError(t, cmd.Start())
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var werr error
			select {
			case werr = <-done:
			case <-time.After(time.Duration(rng.Int64N(int64(span)))):
				cmd.Process.Kill()
				<-done
				kills++
				werr = errors.New("killed")
			}
			if strings.Contains(stderr.String(), "resuming from checkpoint") {
				resumed++
			}
			if werr == nil {
				break
			}
		}
		assert.Equal(t, want, keyFiles(t, dir), "%v after %d kills", board, kills)
		assert.Positive(t, resumed, "%v: no run resumed in %d kills", board, kills)
		assert.NoDirExists(t, filepath.Join(dir, gapset.CheckpointName))
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			assert.False(t, strings.HasPrefix(e.Name(), "."), "temporary %s left", e.Name())
		}
	}
}

// A checkpoint of another enumeration in --out-dir is refused with exit 2
// and one line; --fresh discards it.
func TestEnumerateCheckpointMismatch(t *testing.T) {
	dir := t.TempDir()
	cp := filepath.Join(dir, gapset.CheckpointName)
	// A checkpoint (its marker) of another enumeration.
	require.NoError(t, os.MkdirAll(cp, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(cp, statedir.MarkerName), statedir.Marker("checkpoint"), 0o644))
	manifest := `{"format":1,"rows":3,"cols":3,"gap":4,"exact":false,"packed":false,"cells":[9],"step":3,"runs":[]}`
	require.NoError(t, os.WriteFile(filepath.Join(cp, "manifest.json"), []byte(manifest), 0o644))
	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--out-dir", dir)
	assert.Equal(t, 2, code, errs)
	assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
	assert.Contains(t, errs, "--fresh")
	assert.DirExists(t, cp, "a refused checkpoint stays")
	code, _, errs = runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "2", "--fresh", "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	assert.NoDirExists(t, cp)
	assert.FileExists(t, filepath.Join(dir, "Gap2.keys"))
}
