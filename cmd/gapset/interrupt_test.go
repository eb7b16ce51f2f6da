package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// SIGTERM at moments spread over a gapdb build and over an enumeration:
// every run either finished (exit 0, its outputs in place and equal to an
// uninterrupted run's, its summary printed) or was interrupted (exit 130,
// none of its outputs, no summary, a line saying so), never a mix, and no
// temporary is left either way.
func TestInterruptIsAllOrNothing(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds the binary and interrupts it")
	}
	bin := gapsetBinary(t)
	keys := t.TempDir()
	for _, g := range []string{"0", "2"} {
		code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "3", "--cols", "4", "--gap", g, "--cells", "8", "--out-dir", keys)
		require.Equal(t, 0, code, errs)
	}
	for _, c := range []struct {
		name string
		args func(dir string) []string
		outs []string
		done string // in stdout once finished
	}{
		{"gapdb", func(dir string) []string {
			return []string{"gapdb", "-q", "--keys", filepath.Join(keys, "Gap0_8.keys"), "--keys", filepath.Join(keys, "Gap2_8.keys"),
				"--out", filepath.Join(dir, "g.gapdb")}
		}, []string{"g.gapdb"}, "-> "},
		{"enumerate", func(dir string) []string {
			return []string{"enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "4", "--cells", "9,5", "--memory", "64", "--out-dir", dir}
		}, []string{"Gap4.keys", "Gap4_5.keys"}, "members "},
	} {
		ref := t.TempDir()
		start := time.Now()
		out, err := exec.Command(bin, c.args(ref)...).Output()
		require.NoError(t, err)
		span := time.Since(start)
		require.Contains(t, string(out), c.done)
		want := map[string][]byte{}
		for _, o := range c.outs {
			want[o], err = os.ReadFile(filepath.Join(ref, o))
			require.NoError(t, err)
		}
		const trials = 8
		finished, interrupted := 0, 0
		for i := range trials {
			dir := t.TempDir()
			cmd := exec.Command(bin, c.args(dir)...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Start())
			time.Sleep(span * time.Duration(i+1) / trials)
			cmd.Process.Signal(syscall.SIGTERM) // an error: it has ended
			err := cmd.Wait()
			what := c.name + " interrupted at " + (span * time.Duration(i+1) / trials).String() + ": " + stderr.String()
			var ee *exec.ExitError
			switch {
			case err == nil:
				finished++
				assert.Contains(t, stdout.String(), c.done, what)
				for _, o := range c.outs {
					got, err := os.ReadFile(filepath.Join(dir, o))
					if assert.NoError(t, err, what) {
						assert.Equal(t, want[o], got, "%s: %s", what, o)
					}
				}
			case errors.As(err, &ee) && ee.ExitCode() == 130:
				interrupted++
				assert.NotContains(t, stdout.String(), c.done, what)
				assert.Contains(t, stderr.String(), "gapset: interrupted by terminated", what)
				for _, o := range c.outs {
					assert.NoFileExists(t, filepath.Join(dir, o), what)
				}
			case errors.As(err, &ee) && ee.ExitCode() == -1: // the signal came before the handler
				for _, o := range c.outs {
					assert.NoFileExists(t, filepath.Join(dir, o), what)
				}
			default:
				t.Errorf("%s: %v", what, err)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				assert.False(t, strings.HasPrefix(e.Name(), "."), "%s: temporary %s left", what, e.Name())
			}
		}
		assert.Positive(t, interrupted, "%s: no run was interrupted", c.name)
		t.Logf("%s: %d finished, %d interrupted of %d over %v", c.name, finished, interrupted, trials, span)
	}
}
