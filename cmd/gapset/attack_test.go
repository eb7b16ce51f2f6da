package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gapset/gapset/data"
	"github.com/gapset/gapset/internal/cmdline"
	"github.com/gapset/gapset/internal/sysprobe"
	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The third attack on the command (issue 35, items 4 to 6): each test
// reproduces what it found and holds the fix.

// Two of three boards over --max-nodes: the records are written, the
// summary names them, and the exit status is 3 (a limit), not 0; with
// every board over the limit the records are still kept (no chart).
func TestBenchMaxNodesExitsThreeAndKeepsRecords(t *testing.T) {
	dir := t.TempDir()
	easy, hard := "2 1 2 3 4 5 6 7 0 8\n", "1 "+board3x3+"\n3 8 7 6 5 4 3 2 1 0\n"
	for i, tc := range []struct {
		boards   string
		unsolved int
		chart    bool
	}{{easy + hard, 2, true}, {hard, 2, false}} {
		in := filepath.Join(dir, fmt.Sprintf("in%d.txt", i))
		require.NoError(t, os.WriteFile(in, []byte(tc.boards), 0o644))
		out := filepath.Join(dir, fmt.Sprintf("o%d", i))
		code, _, errs := runCmd(t, "", "bench", "-q", "--rows", "3", "--cols", "3", "-i", in, "--max-nodes", "100", "--out", out)
		assert.Equal(t, 3, code, errs)
		assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
		assert.Contains(t, errs, "2 solves gave up at --max-nodes 100")
		b, err := os.ReadFile(filepath.Join(out, "results.jsonl"))
		require.NoError(t, err)
		assert.Equal(t, strings.Count(tc.boards, "\n"), strings.Count(string(b), "\n"))
		assert.Equal(t, tc.unsolved, strings.Count(string(b), `"error"`))
		_, err = os.Stat(filepath.Join(out, "nodes.png"))
		assert.Equal(t, tc.chart, err == nil)
	}
}

// An included record that no solve could have written (a length below the
// board's Manhattan distance, of the wrong parity, negative) is bad input.
func TestBenchIncludeRefusesImpossibleRecords(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.txt")
	require.NoError(t, os.WriteFile(in, []byte("1 "+board3x3+"\n"), 0o644))
	code, _, errs := runCmd(t, "", "bench", "-q", "--rows", "3", "--cols", "3", "-i", in, "--out", filepath.Join(dir, "a"))
	require.Equal(t, 0, code, errs)
	good, err := os.ReadFile(filepath.Join(dir, "a", "results.jsonl"))
	require.NoError(t, err)
	require.Contains(t, string(good), `"length":31`)
	for _, bad := range []string{`"length":7`, `"length":-5`, `"length":30`} {
		p := filepath.Join(dir, "bad.jsonl")
		require.NoError(t, os.WriteFile(p, []byte(strings.Replace(string(good), `"length":31`, bad, 1)), 0o644))
		out := filepath.Join(dir, "b")
		code, _, errs := runCmd(t, "", "bench", "-q", "--rows", "3", "--cols", "3", "-i", in, "-H", "", "--include", p, "--out", out)
		assert.Equal(t, 2, code, bad)
		assert.Contains(t, errs, "impossible", bad)
		assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
		_, err := os.Stat(out)
		assert.True(t, os.IsNotExist(err), "nothing written for %s", bad)
	}
}

// failAfter is a stdout that takes n bytes, then fails like a closed pipe.
type failAfter struct{ n int }

func (w *failAfter) Write(p []byte) (int, error) {
	if w.n < len(p) {
		return 0, errors.New("pipe closed")
	}
	w.n -= len(p)
	return len(p), nil
}

// gen draws and writes boards one at a time: two billion 2x2 boards start
// at once (they used to be held in memory first: the runtime died out of
// memory), and a reader that goes away ends the run.
func TestGenStreams(t *testing.T) {
	var errb strings.Builder
	code := run([]string{"gapset", "gen", "-n", "2000000000", "--rows", "2", "--cols", "2"}, strings.NewReader(""), &failAfter{1 << 20}, &errb)
	assert.Equal(t, 1, code)
	assert.Contains(t, errb.String(), "pipe closed")
	assert.Equal(t, 1, strings.Count(errb.String(), "\n"), errb.String())
}

// A gap beyond what a key-set header holds is refused before anything is
// printed (approx used to print its table's header first).
func TestApproxRefusesHugeGapFirst(t *testing.T) {
	code, out, errs := runCmd(t, "", "approx", "--rows", "3", "--cols", "3", "--cells", "4", "--max-gap", "100000", "--out-dir", t.TempDir())
	assert.Equal(t, 2, code)
	assert.Empty(t, out)
	assert.Contains(t, errs, "--max-gap 100000")
	assert.Equal(t, 1, strings.Count(errs, "\n"), errs)
}

// Bidirectional pathmax searches with one thread: --threads 2 asked for
// with it is refused instead of silently ignored; without --threads the
// search runs as before.
func TestSolveBPMXRefusesThreads(t *testing.T) {
	for _, args := range [][]string{{"--bpmx"}, {"-H", "md+bpmx"}} {
		code, out, errs := runCmd(t, "", append([]string{"solve", "-q", "--rows", "3", "--cols", "3", "--threads", "2", board3x3}, args...)...)
		assert.Equal(t, 2, code, args)
		assert.Empty(t, out)
		assert.Contains(t, errs, "one thread")
	}
	var errb strings.Builder
	var out strings.Builder
	code := run([]string{"gapset", "solve", "-q", "--rows", "3", "--cols", "3", "--bpmx", board3x3}, strings.NewReader(""), &out, &errb)
	assert.Equal(t, 0, code, errb.String())
	assert.Contains(t, out.String(), "length 31")
}

// An unknown subcommand of a command group points to that group's help.
func TestUnknownSubcommandNamesItsParent(t *testing.T) {
	code, _, errs := runCmd(t, "", "slide", "frob")
	assert.Equal(t, 2, code)
	assert.Equal(t, "gapset: unknown command \"frob\" (gapset slide --help lists the commands)\n", errs)
}

// The databases checked whole are remembered in the user's cache: a
// second solve finds them recorded (and does not hash them again), with
// the same output.
func TestPDBCheckedWholeIsRemembered(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "pdb")
	code, _, errs := runCmd(t, "", "pdb", "build", "-q", "--rows", "3", "--cols", "3", "--partition", "4-4", "--compact", "--out", db)
	require.Equal(t, 0, code, errs)
	record := filepath.Join(dir, "cache", "gapset", "pdb-verified")
	solve := func() string {
		var out, errb strings.Builder
		e := &env{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, context: context.Background(),
			cleanup: cmdline.NewCleanup("gapset", &errb), pdbRecord: record}
		code := runEnv(e, []string{"gapset", "solve", "-q", "--threads", "1", "--rows", "3", "--cols", "3", "-H", "pdb44", "--pdb", db, board3x3})
		require.Equal(t, 0, code, errb.String())
		// the solve's time varies from run to run (0.002s, 0.000s on a busy machine)
		return regexp.MustCompile(`, [0-9.]+s,`).ReplaceAllString(out.String(), ", TIME,")
	}
	first := solve()
	assert.Contains(t, first, "length 31")
	b, err := os.ReadFile(record)
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(b), "\n"), "both groups' files recorded: %s", b)
	assert.Contains(t, string(b), db)
	assert.Equal(t, first, solve())
}

// A recorded database file is checksummed beside the first searches; if
// that check fails (here: a byte changed and the record forged to the new
// identity, as a disk that flips a bit would leave it), solve prints no
// line, not even the CSV header, and exits 2 naming the file.
func TestPDBChecksumBesideSearchFails(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "pdb")
	code, _, errs := runCmd(t, "", "pdb", "build", "-q", "--partition", "6-6-3", "--compact", "--out", db)
	require.Equal(t, 0, code, errs)
	record := filepath.Join(dir, "cache", "gapset", "pdb-verified")
	// the first solve hashes and records; the second trusts the record
	// and checksums beside the search: the same lines
	var first string
	for range 2 {
		var out, errb strings.Builder
		e := &env{stdin: strings.NewReader(korfLines(t, 12, 42)), stdout: &out, stderr: &errb, context: context.Background(),
			cleanup: cmdline.NewCleanup("gapset", &errb), pdbRecord: record}
		code := runEnv(e, []string{"gapset", "solve", "-q", "-f", "csv", "--threads", "1", "-H", "pdb663", "--pdb", db, "-i", "-"})
		require.Equal(t, 0, code, errb.String())
		var lines []string // the seconds column aside
		for _, l := range strings.Split(out.String(), "\n") {
			if f := strings.Split(l, ","); len(f) > 6 {
				lines = append(lines, strings.Join(append(f[:5:5], f[6:]...), ","))
			}
		}
		got := strings.Join(lines, "\n")
		require.Len(t, lines, 3, out.String())
		if first == "" {
			first = got
		}
		assert.Equal(t, first, got)
	}
	// damage a payload byte of a mapped (1 MiB or more) group file in place
	path := filepath.Join(db, "4x4-1-2-5-6-9-10.pdb")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	require.NoError(t, err)
	var b [1]byte
	_, err = f.ReadAt(b[:], 1<<20)
	require.NoError(t, err)
	b[0] ^= 0x11
	_, err = f.WriteAt(b[:], 1<<20)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	// forge the record: the file's new identity with its old digest
	fi, err := os.Stat(path)
	require.NoError(t, err)
	id, ok := sysprobe.FileIdentity(fi)
	require.True(t, ok)
	rec, err := os.ReadFile(record)
	require.NoError(t, err)
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(rec)), "\n") {
		if f := strings.SplitN(l, " ", 3); len(f) == 3 && f[2] == path {
			l = id + " " + f[1] + " " + f[2]
		}
		lines = append(lines, l)
	}
	require.NoError(t, os.WriteFile(record, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	// the forged record is trusted: the load passes, the check beside fails
	part, err := pdb.ParsePartition("6-6-3", 4, 4)
	require.NoError(t, err)
	_, checks, err := pdb.LoadBeside(db, part, pdb.OpenVerified(record))
	require.NoError(t, err)
	failed := 0
	for _, c := range checks {
		if c.Wait() != nil {
			failed++
		}
	}
	require.Equal(t, 1, failed, "one of %d checks left running fails", len(checks))

	var out, errb strings.Builder
	e := &env{stdin: strings.NewReader(korfLines(t, 12, 42)), stdout: &out, stderr: &errb, context: context.Background(),
		cleanup: cmdline.NewCleanup("gapset", &errb), pdbRecord: record}
	code = runEnv(e, []string{"gapset", "solve", "-q", "-f", "csv", "--threads", "1", "-H", "pdb663", "--pdb", db, "-i", "-"})
	assert.Equal(t, 2, code)
	assert.Empty(t, out.String(), "no line before the check passed")
	assert.Contains(t, errb.String(), "checksum mismatch")
	assert.Contains(t, errb.String(), "4x4-1-2-5-6-9-10.pdb")
	assert.Equal(t, 1, strings.Count(errb.String(), "\n"), errb.String())
}

// korfLines is Korf's instances ids as solve reads them.
func korfLines(t *testing.T, ids ...int) string {
	t.Helper()
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "%d %s\n", id, data.KorfInstance(id).Board)
	}
	return b.String()
}
