package main

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/gapset/gapset/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// special makes a non-regular entry of the given kind at path and returns a
// function that reports whether it is still there unchanged.
func special(t *testing.T, kind, path string) func() bool {
	t.Helper()
	var mode os.FileMode
	switch kind {
	case "FIFO":
		require.NoError(t, syscall.Mkfifo(path, 0o644))
		mode = os.ModeNamedPipe
	case "socket":
		l, err := net.Listen("unix", path)
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
		mode = os.ModeSocket
	case "symlink":
		target := path + ".target"
		require.NoError(t, os.WriteFile(target, []byte("keep"), 0o644))
		require.NoError(t, os.Symlink(target, path))
		return func() bool {
			st, err := os.Lstat(path)
			b, _ := os.ReadFile(target)
			return err == nil && st.Mode()&os.ModeSymlink != 0 && string(b) == "keep"
		}
	case "directory":
		require.NoError(t, os.Mkdir(path, 0o755))
		mode = os.ModeDir
	}
	return func() bool {
		st, err := os.Lstat(path)
		return err == nil && st.Mode().Type() == mode
	}
}

// Every command that writes refuses, before any work, an output path that
// exists and is not a regular file, with exit 2 and one line, and leaves it
// as it was: FIFOs, sockets, symlinks and directories.
func TestSpecialFileOutputsRefused(t *testing.T) {
	fixtures := t.TempDir()
	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "2", "--cols", "3", "--gap", "2", "--out-dir", fixtures)
	require.Equal(t, 0, code, errs)
	keys := filepath.Join(fixtures, "Gap2.keys")
	code, _, errs = runCmd(t, "", "build", "-q", "--keys", keys, "--out", filepath.Join(fixtures, "g.bdd"))
	require.Equal(t, 0, code, errs)
	inst := filepath.Join(fixtures, "inst.txt")
	require.NoError(t, os.WriteFile(inst, []byte("1 2 0 3 4 5\n"), 0o644))

	type tc struct {
		name string
		out  string // the special entry, relative to the case's directory
		args func(dir string) []string
	}
	cases := []tc{
		{"build --out", "x.bdd", func(d string) []string {
			return []string{"build", "-q", "--keys", keys, "--out", filepath.Join(d, "x.bdd")}
		}},
		{"enumerate --out", "x.keys", func(d string) []string {
			return []string{"enumerate", "-q", "--rows", "2", "--cols", "3", "--out", filepath.Join(d, "x.keys")}
		}},
		{"enumerate --out-dir", "Gap0.keys", func(d string) []string {
			return []string{"enumerate", "-q", "--rows", "2", "--cols", "3", "--out-dir", d}
		}},
		{"approx --out-dir", "Gap2_4a.keys", func(d string) []string {
			return []string{"approx", "-q", "--rows", "2", "--cols", "3", "--cells", "4", "--max-gap", "2", "--out-dir", d}
		}},
		{"order --out", "o.order", func(d string) []string {
			return []string{"order", "-q", "--keys", keys, "--budget", "1s", "--out", filepath.Join(d, "o.order")}
		}},
		{"pdb build --out", "3x3-1-2-3-4.pdb", func(d string) []string {
			return []string{"pdb", "build", "-q", "--rows", "3", "--cols", "3", "--partition", "4-4", "--out", d}
		}},
		{"bench --out", "results.csv", func(d string) []string {
			return []string{"bench", "--rows", "2", "--cols", "3", "-i", inst, "-H", "md", "--out", d}
		}},
		{"--cpuprofile", "cpu.prof", func(d string) []string {
			return []string{"--cpuprofile", filepath.Join(d, "cpu.prof"), "gen", "-n", "1", "--rows", "2", "--cols", "3"}
		}},
	}
	for _, c := range cases {
		// The control: the same command with nothing at the path succeeds
		// and writes it, so the refusals below are the special files'.
		t.Run(c.name+"/control", func(t *testing.T) {
			dir := t.TempDir()
			code, _, errs := runCmd(t, "", c.args(dir)...)
			require.Equal(t, 0, code, errs)
			assert.FileExists(t, filepath.Join(dir, c.out))
		})
		for _, kind := range []string{"FIFO", "socket", "symlink", "directory"} {
			t.Run(c.name+"/"+kind, func(t *testing.T) {
				dir := t.TempDir()
				same := special(t, kind, filepath.Join(dir, c.out))
				code, out, errs := runCmd(t, "", c.args(dir)...)
				assert.Equal(t, cmdline.ExitInput, code, "stdout %q stderr %q", out, errs)
				assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
				assert.True(t, same(), "the %s at the output path is untouched", kind)
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					assert.False(t, strings.Contains(e.Name(), ".tmp-"), "temporary %s left", e.Name())
				}
			})
		}
	}
	// zdd rewrites its inputs in place: a symlink among them is refused.
	t.Run("zdd/symlink", func(t *testing.T) {
		dir := t.TempDir()
		link := filepath.Join(dir, "l.bdd")
		require.NoError(t, os.Symlink(filepath.Join(fixtures, "g.bdd"), link))
		code, _, errs := runCmd(t, "", "zdd", "-q", link)
		assert.Equal(t, cmdline.ExitInput, code, errs)
		assert.Contains(t, errs, "is a symbolic link, not a regular file")
		st, err := os.Lstat(link)
		require.NoError(t, err)
		assert.NotZero(t, st.Mode()&os.ModeSymlink)
	})
}

// A device at an output path is refused by the check before work; only
// the check runs here, so no test can ever replace a real device.
func TestDeviceOutputRefusedBeforeWork(t *testing.T) {
	if _, err := os.Stat("/dev/null"); err != nil {
		t.Skip("no /dev/null")
	}
	err := cmdline.CheckOutFile("--out", "/dev/null")
	assert.Equal(t, cmdline.ExitInput, cmdline.ExitCode(err))
	assert.ErrorContains(t, err, "is a character device, not a regular file")
	err = cmdline.CheckOutFiles("--out-dir", "/dev/full")
	assert.Equal(t, cmdline.ExitInput, cmdline.ExitCode(err))
}

// enumerate makes a missing --out-dir, and refuses one under a file or a
// directory it cannot write before any work.
func TestEnumerateOutDir(t *testing.T) {
	dir := t.TempDir()
	nested := filepath.Join(dir, "a", "b")
	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "2", "--cols", "3", "--out-dir", nested)
	require.Equal(t, 0, code, errs)
	assert.FileExists(t, filepath.Join(nested, "Gap0.keys"))
	file := filepath.Join(dir, "f")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	code, _, errs = runCmd(t, "", "enumerate", "-q", "--rows", "2", "--cols", "3", "--out-dir", filepath.Join(file, "x"))
	assert.Equal(t, cmdline.ExitInput, code, errs)
	assert.Contains(t, errs, "is a file, not a directory")
}

// enumerate and build refuse an output directory they cannot write before
// any work (exit 2, one line), as a user without write permission. Tests
// run as root here, whom no mode stops, so the binary runs as nobody.
func TestReadOnlyOutDirRefusedBeforeWork(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" || os.Getuid() != 0 {
		t.Skip("needs root to run the binary as another user")
	}
	bin := gapsetBinary(t)
	require.NoError(t, os.Chmod(filepath.Dir(bin), 0o755))
	dir := t.TempDir()
	for _, d := range []string{filepath.Dir(dir), dir} {
		require.NoError(t, os.Chmod(d, 0o755)) // readable, not writable by nobody
	}
	keys := filepath.Join(dir, "Gap0.keys")
	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "2", "--cols", "3", "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	require.NoError(t, os.Chmod(keys, 0o644))
	for _, args := range [][]string{
		{"enumerate", "-q", "--rows", "2", "--cols", "3", "--out-dir", filepath.Join(dir, "sub")},
		{"enumerate", "-q", "--rows", "2", "--cols", "3", "--gap", "2", "--out-dir", dir},
		{"build", "-q", "--keys", keys, "--out", filepath.Join(dir, "x.bdd")},
		{"pdb", "build", "-q", "--rows", "3", "--cols", "3", "--partition", "4-4", "--out", filepath.Join(dir, "pdb")},
	} {
		cmd := exec.Command(bin, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		require.ErrorAs(t, err, &ee, "%v: %s", args, stderr.String())
		assert.Equal(t, 2, ee.ExitCode(), "%v: %s", args, stderr.String())
		assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), "%v: %s", args, stderr.String())
		assert.Contains(t, stderr.String(), "not writable", args)
	}
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1, "nothing written but the first run's file")
}
