package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/solution"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The command-line contract of README.md: flags anywhere, one line per
// error, exit 0 done, 2 bad input, 3 a limit reached, 1 anything else.

const board3x3 = "8 6 7 2 5 4 3 0 1" // 31 moves

// files3x3 makes a small key set, BDD and pattern database directory.
func files3x3(t *testing.T) (keys, bddFile, pdbDir string) {
	t.Helper()
	dir := t.TempDir()
	keys = filepath.Join(dir, "Gap0_5.keys")
	require.NoError(t, keyset.WriteFile(keys, keyset.Header{Rows: 3, Cols: 3, Cells: 5, Gap: 0}, projectKeys(gapKeys3x3(t, 0), 5)))
	bddFile = filepath.Join(dir, "Gap0_5.bdd")
	code, _, errs := runCmd(t, "", "build", "-q", "--keys", keys, "--out", bddFile)
	require.Equal(t, 0, code, errs)
	pdbDir = filepath.Join(dir, "pdb")
	code, _, errs = runCmd(t, "", "pdb", "build", "-q", "--partition", "4-4", "--rows", "3", "--cols", "3", "--out", pdbDir)
	require.Equal(t, 0, code, errs)
	return keys, bddFile, pdbDir
}

func projectKeys(keys []uint64, cells int) []uint64 {
	mask := uint64(1)<<(4*cells) - 1
	seen := map[uint64]bool{}
	var out []uint64
	for _, k := range keys {
		if p := k & mask; !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Flags after the positional arguments are flags, in every command.
func TestFlagsAfterArguments(t *testing.T) {
	keys, bddFile, _ := files3x3(t)
	before, err := os.ReadFile(bddFile)
	require.NoError(t, err)
	code, out, errs := runCmd(t, "", "zdd", bddFile, "-n", "-q")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "zdd_nodes=")
	after, _ := os.ReadFile(bddFile)
	assert.Equal(t, before, after, "a dry run never writes")

	code, out, errs = runCmd(t, "", "count", keys, "--format", "json")
	require.Equal(t, 0, code, errs)
	assert.True(t, json.Valid([]byte(out)), out)
	code, out, errs = runCmd(t, "", "report", bddFile, "--verify", "--format", "json")
	require.Equal(t, 0, code, errs)
	assert.True(t, json.Valid([]byte(out)), out)
	code, out, errs = runCmd(t, "", "solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15", "--format", "json", "-q")
	require.Equal(t, 0, code, errs)
	assert.True(t, json.Valid([]byte(out)), out)
	code, out, errs = runCmd(t, "", "oshidori", "B W B W B W _ _", "--format", "json")
	require.Equal(t, 0, code, errs)
	assert.True(t, json.Valid([]byte(out)), out)
	code, out, errs = runCmd(t, "", "six", "solve", "1 5 2 6 3 4 0", "--format", "json")
	require.Equal(t, 0, code, errs)
	assert.True(t, json.Valid([]byte(out)), out)
}

// report checks the checksum without --verify: a flipped header byte is
// refused, never printed.
func TestReportChecksHeader(t *testing.T) {
	_, bddFile, _ := files3x3(t)
	good, err := os.ReadFile(bddFile)
	require.NoError(t, err)
	for _, at := range []int{16, 32, 40, 64, len(good) - 10} {
		b := bytes.Clone(good)
		b[at] ^= 4
		p := filepath.Join(t.TempDir(), "x.bdd")
		require.NoError(t, os.WriteFile(p, b, 0o644))
		code, out, errs := runCmd(t, "", "report", p)
		assert.Equal(t, 2, code, "byte %d: %s", at, errs)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
	}
}

// --max-nodes gives up on a board, reports it and goes on; exit 3.
func TestSolveMaxNodesPerBoard(t *testing.T) {
	in := "1 " + board3x3 + "\n2 1 2 3 4 5 6 7 0 8\n"
	for _, format := range []string{"text", "json", "csv"} {
		code, out, errs := runCmd(t, in, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "--max-nodes", "100", "-f", format)
		assert.Equal(t, 3, code, errs)
		assert.Contains(t, errs, "1 of 2 boards unsolved")
		switch format {
		case "json":
			lines := strings.Split(strings.TrimSpace(out), "\n")
			require.Len(t, lines, 2)
			var a, b solution.Row
			require.NoError(t, json.Unmarshal([]byte(lines[0]), &a))
			require.NoError(t, json.Unmarshal([]byte(lines[1]), &b))
			assert.True(t, a.Unsolved)
			assert.False(t, b.Unsolved)
			assert.Equal(t, 1, b.Length)
		case "csv":
			assert.Contains(t, out, "1,8 6 7 2 5 4 3 0 1,unsolved,")
			assert.Contains(t, out, "2,1 2 3 4 5 6 7 0 8,1,")
		default:
			assert.Contains(t, out, "1: unsolved: --max-nodes 100 reached")
			assert.Contains(t, out, "2: length 1")
		}
	}
}

// Every command: usage errors are one line and a hint, never the help on
// stdout; the exit status follows the contract.
func TestExitCodes(t *testing.T) {
	keys, bddFile, pdbDir := files3x3(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(file, []byte("x"), 0o644))
	ro := filepath.Join(dir, "ro")
	require.NoError(t, os.Mkdir(ro, 0o555))
	s33 := []string{"--rows", "3", "--cols", "3"}
	cases := []struct {
		code int
		args []string
	}{
		{0, []string{"solve", "-q", "--rows", "3", "--cols", "3", board3x3}},
		{2, []string{"bogus"}},
		{2, []string{"solve", "--nope", board3x3}},
		{2, []string{"solve", "-q", "--rows", "3", "--cols", "3", "+8 6 7 2 5 4 3 0 1"}},
		{2, []string{"solve", "-q", "--rows", "3", "--cols", "3", "08 6 7 2 5 4 3 0 1"}},
		{2, []string{"solve", "-q", "--rows", "3", "--cols", "3", "8,,6 7 2 5 4 3 0 1"}},
		{2, []string{"solve", "-q", "--rows", "3", "--cols", "3", "99999999999999999999 6 7 2 5 4 3 0 1"}},
		{2, []string{"solve", "-q", "-H", "md", "--keys", "/nonexistent"}},
		{2, append([]string{"solve", "-q", "-H", "md", "--bdd", "junk", board3x3}, s33...)},
		{2, append([]string{"solve", "-q", "-H", "md", "--pdb", "/nonexistent", board3x3}, s33...)},
		{2, append([]string{"solve", "-q", "-H", "md", "--cells", "99", board3x3}, s33...)},
		{2, append([]string{"solve", "-q", "-H", "gap0", "--keys", keys, "--dense", "99", board3x3}, s33...)},
		{2, append([]string{"solve", "-q", "-H", "gap0", "--keys", keys, "--dense", "-1", board3x3}, s33...)},
		{2, append([]string{"solve", "-q", "--max-nodes", "-1", board3x3}, s33...)},
		{2, append([]string{"solve", "-q", "--threads", "0", board3x3}, s33...)},
		{2, append([]string{"solve", "-q", "--threads", "1000", board3x3}, s33...)},
		{2, []string{"bench", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-j", "1000", "--out", filepath.Join(dir, "b")}},
		{2, append([]string{"solve", "-q", "-H", "pdb44", "--pdb", keys, board3x3}, s33...)},
		{2, append([]string{"solve", "-q", "-H", "gap0", "--keys", filepath.Dir(keys), board3x3}, s33...)},
		{0, append([]string{"solve", "-q", "-H", "gap0", "--keys", keys, board3x3}, s33...)},
		{0, append([]string{"solve", "-q", "-H", "gap0", "--bdd", bddFile, board3x3}, s33...)},
		{0, append([]string{"solve", "-q", "-H", "max(pdb44,gap0)", "--bdd", bddFile, "--pdb", pdbDir, board3x3}, s33...)},
		{2, []string{"build", "--keys", keys}},
		{2, []string{"order", "--keys", keys}},
		{2, []string{"build", "--keys", keys, "--out", dir}},
		{2, []string{"build", "--keys", keys, "--out", filepath.Join(ro, "x.bdd")}},
		{2, []string{"build", "--keys", keys, "--out", filepath.Join(dir, "y.bdd"), "extra"}},
		{2, []string{"enumerate", "--rows", "2", "--cols", "3", "--out", dir}},
		{2, []string{"enumerate", "--rows", "2", "--cols", "3", "--out-dir", dir, "extra"}},
		{2, []string{"gen", "extra"}},
		{2, []string{"pdb", "build", "-q", "--partition", "4-4", "--rows", "3", "--cols", "3", "--out", ro}},
		{2, []string{"pdb", "build", "-q", "--partition", "4-4", "--rows", "3", "--cols", "3", "--out", filepath.Join(ro, "sub")}},
		{2, []string{"pdb", "build", "-q", "--partition", "4-4", "--rows", "3", "--cols", "3", "--out", file}},
		{2, []string{"pdb", "build", "-q", "--partition", "4-4", "--rows", "3", "--cols", "3", "--workers", "0", "--out", dir}},
		{2, []string{"pdb", "build", "-q", "--partition", "4-4", "--rows", "3", "--cols", "3", "--workers", "1000", "--out", dir}},
		{2, []string{"bench", "-q", "--rows", "3", "--cols", "3", "-i", "-", "--out", file}},
		{2, []string{"bench", "-q", "--rows", "3", "--cols", "3", "-i", "-", "--out", filepath.Join(ro, "r")}},
		{2, []string{"count", filepath.Dir(keys)}},
		{0, []string{"count", keys}},
		{0, []string{"report", bddFile}},
		{2, []string{"report", keys}},
		{0, []string{"zdd", "-n", "-q", bddFile}},
		{0, []string{"verify", keys, bddFile, filepath.Join(pdbDir, "3x3-1-2-3-4.pdb")}},
		{2, []string{"verify", file}},
		{0, []string{"verify", "-q", "--keys", keys, bddFile}},
		{2, []string{"verify", "-q", "--keys", keys, bddFile, bddFile}},
		{2, []string{"verify", "-q", "--keys", file, bddFile}},
		{2, []string{"verify", "-q", "--keys", bddFile, bddFile}},
		{2, []string{"verify", "-q", "--keys", filepath.Join(dir, "missing.keys"), bddFile}},
		{2, []string{"verify", "-q", "--keys", filepath.Dir(keys), bddFile}},
		{2, []string{"verify", "-q", "--keys", "", bddFile}},
		{2, []string{"verify", "-q", "--keys", "-", bddFile}},
		{2, []string{"verify", "-q", "--keys", filepath.Join(pdbDir, "3x3-1-2-3-4.pdb"), bddFile}},
		{2, []string{"verify", "-q", "--keys", keys, filepath.Dir(keys)}},
		{2, []string{"verify", "-q", "--keys", keys, filepath.Join(pdbDir, "3x3-1-2-3-4.pdb")}},
		{2, []string{"six", "ida", "(1 5 2 6 3 4 0"}},
		{2, []string{"six", "ida", strings.Repeat("9", 120000)}},
		{3, []string{"six", "ida", "--max-depth", "12", "4 6 5 1 3 2 0"}},
		{3, []string{"slide", "--rows", "3", "--cols", "3", "ida", "--max-depth", "30", board3x3}},
		{3, []string{"slide", "--rows", "3", "--cols", "3", "ida", "--max-nodes", "10", board3x3}},
		{2, []string{"slide", "--rows", "3", "--cols", "3", "ida", "--max-nodes", "-1", board3x3}},
		{0, []string{"gen", "--count", "2"}},
		{2, []string{"demo", "extra"}},
		{2, []string{"oshidori", "B W"}},
		{0, []string{"oshidori", "B W B W B W _ _"}},
		{2, append([]string{"solve", "-q", "-H", "gap0", "--bdd", filepath.Dir(keys), board3x3}, s33...)},
		{2, []string{"approx", "--cells", "99", "--out-dir", dir}},
		{2, []string{"approx"}}, // the default is a 13 GB 4x4 run: it needs --out-dir
	}
	for _, c := range cases {
		if os.Geteuid() == 0 && slices.ContainsFunc(c.args, func(a string) bool { return strings.HasPrefix(a, ro) }) {
			continue // root writes into read-only directories
		}
		code, out, errs := runCmd(t, boards3x3, c.args...)
		name := cmdline.Truncate(strings.Join(c.args, " "), 100)
		assert.Equal(t, c.code, code, "%s: %s", name, errs)
		if c.code != 0 {
			assert.Equal(t, 1, strings.Count(errs, "\n"), "%s: one line: %s", name, errs)
			assert.True(t, strings.HasPrefix(errs, "gapset: "), "%s: %s", name, errs)
			assert.Less(t, len(errs), 400, "%s: short", name)
			if c.code == 2 {
				assert.Empty(t, out, "%s: no help on stdout", name)
			}
		}
	}
	_, err := os.Stat(filepath.Join(dir, "y.bdd"))
	assert.True(t, os.IsNotExist(err), "nothing written on bad input")
	code, _, errs := runCmd(t, "", "solve", "--nope", board3x3)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "gapset solve --help")
}

// A key file whose checksum was recomputed after a key was damaged is
// refused on load, not used to give a wrong length.
func TestLoadTimeChecks(t *testing.T) {
	keys, bddFile, pdbDir := files3x3(t)
	b, err := os.ReadFile(keys)
	require.NoError(t, err)
	b[keyset.HeaderSize+3] ^= 0x11 // change two tiles of the first key
	fixCRC(b, 4)
	require.NoError(t, os.WriteFile(keys, b, 0o644))
	code, _, errs := runCmd(t, "", "solve", "-q", "--rows", "3", "--cols", "3", "-H", "gap0", "--keys", keys, board3x3)
	assert.Equal(t, 2, code, errs)

	p := filepath.Join(pdbDir, "3x3-1-2-3-4.pdb")
	b, err = os.ReadFile(p)
	require.NoError(t, err)
	b[40+100] = 60 // far above its neighbours
	binary.LittleEndian.PutUint32(b[36:], crc32.Update(crc32.Checksum(b[:36], crc32.MakeTable(crc32.Castagnoli)), crc32.MakeTable(crc32.Castagnoli), b[40:]))
	require.NoError(t, os.WriteFile(p, b, 0o644))
	code, _, errs = runCmd(t, "", "solve", "-q", "--rows", "3", "--cols", "3", "-H", "pdb44", "--pdb", pdbDir, board3x3)
	assert.Equal(t, 2, code, errs)
	assert.Contains(t, errs, "corrupt pattern database")
	code, _, errs = runCmd(t, "", "verify", p)
	assert.Equal(t, 2, code, errs)

	st, err := os.Stat(bddFile)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o644), st.Mode().Perm(), ".bdd files are data to share")
}

// fixCRC recomputes a CRC-32C trailer of the last tail bytes.
func fixCRC(b []byte, tail int) {
	binary.LittleEndian.PutUint32(b[len(b)-tail:], crc32.Checksum(b[:len(b)-tail], crc32.MakeTable(crc32.Castagnoli)))
}

func TestInstanceFileBOM(t *testing.T) {
	code, out, errs := runCmd(t, "\ufeff1 "+board3x3+"\n", "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-")
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "length 31")
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// gapsetBinary builds the command once for the tests that send signals.
func gapsetBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gapset-bin-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "gapset")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = &buildError{string(out)}
		}
	})
	require.NoError(t, binErr)
	return binPath
}

type buildError struct{ out string }

func (e *buildError) Error() string { return e.out }

// SIGTERM in a writing command: temporaries removed, one line, exit 130.
func TestInterruptCleansUp(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds the binary and runs a pattern-database build")
	}
	bin := gapsetBinary(t)
	dir := t.TempDir()
	cmd := exec.Command(bin, "pdb", "build", "--partition", "7-8", "--workers", "1", "--out", dir, "-q")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	time.Sleep(1500 * time.Millisecond)
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))
	err := cmd.Wait()
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee, stderr.String())
	assert.Equal(t, 130, ee.ExitCode(), stderr.String())
	assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
	assert.Contains(t, stderr.String(), "interrupted")
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, strings.HasPrefix(e.Name(), "."), "temporary %s left", e.Name())
	}
}

// A run killed with SIGKILL while it writes leaves its temporaries and
// scratch; the next run in that directory removes them and says so, and a
// live process's temporaries stay.
func TestKilledRunsTemporariesRemoved(t *testing.T) {
	if testing.Short() || runtime.GOOS != "linux" {
		t.Skip("builds the binary and enumerates a 3x4 gap-6 set")
	}
	bin := gapsetBinary(t)
	dir := t.TempDir()
	// No checkpoint however slow the machine: the 2x3 run below would
	// find one of another enumeration and be refused.
	cmd := exec.Command(bin, "enumerate", "--rows", "3", "--cols", "4", "--gap", "6", "--cells", "12,8", "--memory", "64",
		"--checkpoint-every", "1h", "--out-dir", dir, "-q")
	require.NoError(t, cmd.Start())
	// a temporary is a marked scratch directory; the file being written
	// appears in it after the marker
	temps := func() []string {
		m, _ := filepath.Glob(filepath.Join(dir, ".Gap6*.keys.tmp-*", "Gap6*.keys"))
		for i := range m {
			m[i] = filepath.Dir(m[i])
		}
		return m
	}
	deadline := time.Now().Add(2 * time.Minute)
	for len(temps()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	require.NoError(t, cmd.Process.Kill())
	cmd.Wait()
	left := temps()
	require.NotEmpty(t, left, "the run was killed while writing an output")
	live, err := atomicfile.MkdirTemp(dir, "Gap0.keys") // this process's
	require.NoError(t, err)

	code, _, errs := runCmd(t, "", "enumerate", "-q", "--rows", "2", "--cols", "3", "--out-dir", dir)
	require.Equal(t, 0, code, errs)
	for _, p := range left {
		assert.Contains(t, errs, "removed "+p+" left by process "+strconv.Itoa(cmd.Process.Pid)+", which is gone")
		assert.NoDirExists(t, p)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") || e.Name() == filepath.Base(live) {
			continue
		}
		// Only a writer killed in the moment between making a scratch
		// directory and writing its marker leaves one unproven: empty,
		// left, and said so.
		inside, _ := os.ReadDir(filepath.Join(dir, e.Name()))
		assert.Empty(t, inside, "only the live process's temporary stays, and %s is not empty", e.Name())
		assert.Contains(t, errs, "gapset: left ")
	}
}
