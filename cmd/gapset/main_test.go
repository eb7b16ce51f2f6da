package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runCmd runs the CLI in-process and returns status, stdout and stderr.
func runCmd(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	if len(args) > 0 && args[0] == "solve" && !slices.Contains(args, "--threads") {
		// one thread: the tests compare node counts, which depend on the
		// threads only in the last iteration
		args = append(args, "--threads", "1")
	}
	var out, errb bytes.Buffer
	code := run(append([]string{"gapset"}, args...), strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

// Several threads give the same lengths as one.
func TestSolveThreads(t *testing.T) {
	var lengths [2][]int
	for i, n := range []string{"1", "2"} {
		code, out, errs := runCmd(t, boards3x3, "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "-f", "json", "--threads", n)
		require.Equal(t, 0, code, errs)
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			var rec struct{ Length int }
			require.NoError(t, json.Unmarshal([]byte(line), &rec))
			lengths[i] = append(lengths[i], rec.Length)
		}
	}
	require.Len(t, lengths[0], 3)
	assert.Equal(t, lengths[0], lengths[1])
	code, _, _ := runCmd(t, "", "solve", "-q", "--threads", "0", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15")
	assert.Equal(t, 2, code)
}

func TestSolveJSON(t *testing.T) {
	code, out, _ := runCmd(t, "", "solve", "-q", "--format", "json", "1 2 3 4 5 6 7 8 9 10 11 12 13 0 14 15", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,0,15")
	require.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 2)
	var rec struct {
		ID        string `json:"id"`
		Board     string `json:"board"`
		Length    int    `json:"length"`
		Moves     []int  `json:"moves"`
		Nodes     int64  `json:"nodes"`
		Seconds   float64
		Heuristic string `json:"heuristic"`
	}
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &rec))
	assert.Equal(t, "arg1", rec.ID) // the argument's id (issue 55: was "1")
	assert.Equal(t, 2, rec.Length)
	assert.Equal(t, []int{14, 15}, rec.Moves)
	assert.Equal(t, "md", rec.Heuristic)
	assert.Positive(t, rec.Nodes)
}

func TestSolveFileAndStdin(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "in.txt")
	require.NoError(t, os.WriteFile(p, []byte("# two 3x3 boards\nA1 1 2 3\n"), 0o644))
	code, _, errs := runCmd(t, "", "solve", "--rows", "3", "--cols", "3", "-i", p)
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "in.txt:2:")
	assert.Equal(t, 1, strings.Count(errs, "\n"), errs)

	code, out, _ := runCmd(t, "5 8 6 7 2 5 4 3 0 1\n", "solve", "-q", "--rows", "3", "--cols", "3", "-i", "-", "--format", "csv")
	require.Equal(t, 0, code)
	rows := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, rows, 2)
	assert.True(t, strings.HasPrefix(rows[0], "id,board,length"))
	assert.True(t, strings.HasPrefix(rows[1], "5,8 6 7 2 5 4 3 0 1,31,"), rows[1])
}

func TestBadInputExitsTwo(t *testing.T) {
	cases := [][]string{
		{"solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0"}, // unsolvable
		{"solve", "1 2 3"}, // wrong count
		{"solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 14 0"}, // repeated
		{"solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 99 0"}, // out of range
		{"solve"}, // nothing
		{"solve", "--format", "xml", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"},
		{"solve", "--heuristic", "nope", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15"},
		{"solve", "-i", "/nonexistent/file"},
		{"solve", "--rows", "5", "--cols", "5", "1"},
		{"solve", "--no-such-flag"},
		{"gen", "--count", "-1"},
	}
	for _, args := range cases {
		code, _, errs := runCmd(t, "", args...)
		assert.Equal(t, 2, code, "%v: %s", args, errs)
		assert.Contains(t, errs, "gapset:", "%v", args)
	}
}

func TestGenIsReproducibleAndSolvable(t *testing.T) {
	_, a, _ := runCmd(t, "", "gen", "--count", "50", "--seed", "9")
	_, b, _ := runCmd(t, "", "gen", "--count", "50", "--seed", "9")
	_, c, _ := runCmd(t, "", "gen", "--count", "50", "--seed", "10")
	assert.Equal(t, a, b)
	assert.NotEqual(t, a, c)
	insts, err := encode.ReadInstances(strings.NewReader(a), "gen", 4, 4)
	require.NoError(t, err)
	assert.Len(t, insts, 50)
}

// --cpuprofile writes a profile pprof can read; a path that cannot be
// created is bad input.
func TestCPUProfile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cpu.prof")
	code, _, errs := runCmd(t, "", "--cpuprofile", path, "solve", "-q", "--rows", "3", "--cols", "3", "8", "6", "7", "2", "5", "4", "3", "0", "1")
	require.Equal(t, 0, code, errs)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	zr, err := gzip.NewReader(f) // pprof's format: gzipped protocol buffers
	require.NoError(t, err)
	raw, err := io.ReadAll(zr)
	require.NoError(t, err)
	assert.NotEmpty(t, raw)
	code, _, errs = runCmd(t, "", "--cpuprofile", filepath.Join(t.TempDir(), "no", "such", "dir", "p"), "solve", "1", "2", "3", "0")
	assert.Equal(t, 2, code)
	assert.Contains(t, errs, "--cpuprofile")
}

// TestLimitSentinelsExitThree: each package's limit sentinel, wrapped as the
// packages wrap it, exits with status 3 (a BDD level too wide among them:
// the exact Gap6_10 of the 4x4 board is too big for the builder).
func TestLimitSentinelsExitThree(t *testing.T) {
	for _, s := range limitErrors {
		err := fmt.Errorf("%w: level 32 needs more nodes", s)
		assert.Equal(t, 3, cmdline.ExitCode(err, limitErrors...), "%v", s)
	}
	assert.Contains(t, limitErrors, bdd.ErrLevelFull)
	assert.Contains(t, limitErrors, bdd.ErrTooBig)
	tooBig := cmdline.BadInput(fmt.Errorf("Gap6_10.bdd: %w: loading its nodes takes at least 8.7 GiB", bdd.ErrTooBig))
	assert.Equal(t, 3, cmdline.ExitCode(tooBig, limitErrors...), "a BDD too big for memory, as the heuristics pass it on")
	assert.Equal(t, 1, cmdline.ExitCode(errors.New("other"), limitErrors...))
}

// A board given as an argument is named by its argument ("arg1", "arg2"),
// in every format, not by a number an instance file's id could hold.
func TestSolveArgumentIDs(t *testing.T) {
	boards := []string{"1 2 3 4 5 6 7 0 8", "1 2 3 4 5 6 0 7 8"}
	args := append([]string{"solve", "-q", "--rows", "3", "--cols", "3"}, boards...)
	code, out, errs := runCmd(t, "", args...)
	require.Equal(t, 0, code, errs)
	assert.True(t, strings.HasPrefix(out, "arg1: length 1,"), out)
	assert.Contains(t, out, "\narg2: length 2,")
	code, out, errs = runCmd(t, "", append(args, "-f", "csv")...)
	require.Equal(t, 0, code, errs)
	assert.Contains(t, out, "\narg1,"+boards[0]+",")
	code, out, errs = runCmd(t, "", append(args, "-f", "json")...)
	require.Equal(t, 0, code, errs)
	var row struct{ ID string }
	require.NoError(t, json.Unmarshal([]byte(strings.SplitN(out, "\n", 2)[0]), &row))
	assert.Equal(t, "arg1", row.ID)
}
