package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// asCommand makes the test binary run main: the tests start the command
// as a process of its own (exit statuses, Beam's flags and the in-process
// Prism are per process) without building another binary.
const asCommand = "GAPSET_CLUSTER_TEST_AS_COMMAND"

func TestMain(m *testing.M) {
	if os.Getenv(asCommand) == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// command runs gapset-cluster with args and extra environment variables
// and returns its stdout, stderr and exit status.
func command(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	self, err := os.Executable()
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, self, args...)
	cmd.Env = append(append(os.Environ(), asCommand+"=1"), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else {
		require.NoError(t, err)
	}
	return stdout.String(), stderr.String(), code
}

// enumerated writes gapset.Enumerate's key-set files for the layout into
// a new directory.
func enumerated(t *testing.T, l gapset.Layout) (gapset.Result, string) {
	t.Helper()
	dir := t.TempDir()
	res, err := gapset.Enumerate(context.Background(), l.Config(dir))
	require.NoError(t, err)
	return res, dir
}

// sameFiles checks the command's JSON summary against Enumerate's and
// that the files in dir are Enumerate's byte for byte, and nothing else.
func sameFiles(t *testing.T, want gapset.Result, wantDir, stdout, dir string) {
	t.Helper()
	var got gapset.Result
	require.NoError(t, json.Unmarshal([]byte(stdout), &got), stdout)
	assert.Equal(t, want.Layers, got.Layers)
	assert.Equal(t, want.Members, got.Members)
	require.Len(t, got.Outputs, len(want.Outputs))
	for i, o := range want.Outputs {
		g := got.Outputs[i]
		assert.Equal(t, o.Cells, g.Cells)
		assert.Equal(t, o.Count, g.Count)
		assert.Equal(t, filepath.Join(dir, o.Name+".keys"), g.Path)
		a, err := os.ReadFile(filepath.Join(wantDir, o.Name+".keys"))
		require.NoError(t, err)
		b, err := os.ReadFile(filepath.Join(dir, o.Name+".keys"))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(a, b), "%s differs from gapset.Enumerate's", o.Name)
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, len(want.Outputs), "only the key-set files: no work directory, no temporaries")
}

// The command's tests check the command (its flags, its process, its
// output and exit statuses) on the boards of fewest steps, one Beam job a
// step; that the pipeline writes Enumerate's files for every kind of
// layout is package pipeline's test, the larger boards with GAPSET_SLOW=1
// (TestEnumerate3x4Gap10 here).

// The 3x3 board up to gap 4 with the 6-cell projection, on Prism in the
// command's process: Enumerate's files and summary, one progress line per
// step.
func TestEnumerate(t *testing.T) {
	l := gapset.Layout{Rows: 3, Cols: 3, MaxGap: 4, Cells: []int{6, 9}}
	want, wantDir := enumerated(t, l)
	dir := filepath.Join(t.TempDir(), "sets")
	stdout, stderr, code := command(t, nil, "enumerate", "--rows", "3", "--cols", "3", "--gap", "4", "--cells", "6,9",
		"--out-dir", dir, "--format", "json")
	require.Zero(t, code, stderr)
	sameFiles(t, want, wantDir, stdout, dir)
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	steps := 0
	for _, c := range want.Layers {
		steps = max(steps, c.Gap+c.Manhattan+1)
	}
	// Steps 0 .. the first empty one, and the key-set files; no log of
	// Prism's.
	require.Len(t, lines, steps+2, stderr)
	for _, line := range lines {
		assert.True(t, strings.HasPrefix(line, "gapset-cluster: "), line)
	}
}

// --rank-runs: the layers rank-coded, the key-set files the same.
func TestEnumerateRankRuns(t *testing.T) {
	l := gapset.Layout{Rows: 2, Cols: 3, MaxGap: 2, Cells: []int{6, 5}, Packed: true}
	want, wantDir := enumerated(t, l)
	dir := filepath.Join(t.TempDir(), "sets")
	stdout, stderr, code := command(t, nil, "enumerate", "--rows", "2", "--cols", "3", "--gap", "2", "--cells", "6,5",
		"--packed", "--rank-runs", "--out-dir", dir, "--format", "json", "-q")
	require.Zero(t, code, stderr)
	sameFiles(t, want, wantDir, stdout, dir)
}

// The 3x4 sets up to gap 10 (opt-in, minutes: GAPSET_SLOW=1): identical
// files and summary.
func TestEnumerate3x4Gap10(t *testing.T) {
	slowtest.Skip(t, "enumerate the 3x4 sets up to gap 10")
	l := gapset.Layout{Rows: 3, Cols: 4, MaxGap: 10, Cells: []int{6, 12}, Packed: true}
	want, wantDir := enumerated(t, l)
	dir := filepath.Join(t.TempDir(), "sets")
	stdout, stderr, code := command(t, nil, "enumerate", "--rows", "3", "--cols", "4", "--gap", "10", "--cells", "6,12",
		"--packed", "--out-dir", dir, "--format", "json", "-q")
	require.Zero(t, code, stderr)
	sameFiles(t, want, wantDir, stdout, dir)
}

// freePort finds a TCP port nobody listens on.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "localhost:0")
	require.NoError(t, err)
	port := ln.Addr().(*net.TCPAddr).Port
	require.NoError(t, ln.Close())
	return port
}

// A job server started apart from the command (here: Prism's job service
// in the test's process, on a port; the command in its own process submits
// every job to it through the universal runner, and serves the workers
// itself with LOOPBACK).
func TestJobServer(t *testing.T) {
	port := freePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := prism.CreateJobServer(ctx, prism.Options{Port: port})
	require.NoError(t, err)
	l := gapset.Layout{Rows: 2, Cols: 3, MaxGap: 2, Cells: []int{6, 4}, Packed: true}
	want, wantDir := enumerated(t, l)
	dir := t.TempDir()
	stdout, stderr, code := command(t, nil, "enumerate", "--rows", "2", "--cols", "3", "--gap", "2", "--cells", "6,4", "--packed",
		"--out-dir", dir, "--format", "json", "-q",
		"--runner", "universal", "--endpoint", fmt.Sprintf("localhost:%d", port), "--environment_type", "LOOPBACK")
	require.Zero(t, code, stderr)
	assert.Empty(t, stderr, "-q: nothing on stderr")
	sameFiles(t, want, wantDir, stdout, dir)
}

// A part that fails fails the job: one line naming it, exit status 1,
// no key-set file and no temporary left, the steps before it kept in the
// work directory (--work-dir); the same command again resumes there and
// writes the right files; other arguments are refused until --fresh.
func TestFailureThenRerun(t *testing.T) {
	l := gapset.Layout{Rows: 2, Cols: 3, MaxGap: 2, Exact: true, Cells: []int{6, 4}}
	want, wantDir := enumerated(t, l)
	dir, work := t.TempDir(), t.TempDir()
	args := []string{"enumerate", "--rows", "2", "--cols", "3", "--gap", "2", "--exact", "--cells", "6,4",
		"--out-dir", dir, "--work-dir", work, "--format", "json"}
	// Part 1 (tile 1 in cell 0, as in the goal) of level 1 at step 6.
	stdout, stderr, code := command(t, []string{failAtEnv + "=6/1/1"}, append(args, "-q")...)
	assert.Equal(t, 1, code)
	assert.Empty(t, stdout)
	assert.Equal(t, "gapset-cluster: the job failed: step 6, part 1 of level 1: injected failure\n", stderr)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "no key-set file")
	steps, err := filepath.Glob(filepath.Join(work, "gapset-cluster-work", "d*", "manifest.json"))
	require.NoError(t, err)
	assert.Len(t, steps, 6, "steps 0 to 5 kept")

	_, stderr, code = command(t, nil, "enumerate", "--rows", "2", "--cols", "3", "--gap", "4", "--out-dir", dir, "--work-dir", work)
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(stderr, "\n"), stderr)
	assert.Contains(t, stderr, "give --fresh to discard it")

	stdout, stderr, code = command(t, nil, args...)
	require.Zero(t, code, stderr)
	assert.True(t, strings.HasPrefix(stderr, "gapset-cluster: resuming "), stderr)
	assert.Contains(t, stderr, "after step 5 (")
	sameFiles(t, want, wantDir, stdout, dir)
	entries, err = os.ReadDir(work)
	require.NoError(t, err)
	assert.Empty(t, entries, "the work directory is removed at the end")
}

// An object store work location (memfs: the command's in-process Prism
// runs the workers in its process, so they share it): Enumerate's files in
// --out-dir, nothing left in --local-tmp.
func TestObjectStoreWorkDir(t *testing.T) {
	l := gapset.Layout{Rows: 2, Cols: 3, MaxGap: 2, Cells: []int{6, 4}}
	want, wantDir := enumerated(t, l)
	dir, scratch := t.TempDir(), t.TempDir()
	stdout, stderr, code := command(t, nil, "enumerate", "--rows", "2", "--cols", "3", "--gap", "2", "--cells", "6,4",
		"--out-dir", dir, "--work-dir", "memfs://cmd/runs", "--local-tmp", scratch, "--format", "json", "-q")
	require.Zero(t, code, stderr)
	assert.Empty(t, stderr)
	sameFiles(t, want, wantDir, stdout, dir)
	entries, err := os.ReadDir(scratch)
	require.NoError(t, err)
	assert.Empty(t, entries, "the scratch copies are removed")
}

// Bad flags: exit status 2 and one line, before any work.
func TestBadInput(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"enumerate", "--bogus"}, "flag provided but not defined: -bogus"},
		{[]string{"enumerate", "--gap", "3"}, "gap 3 must be even"},
		{[]string{"enumerate", "--rows", "5", "--cols", "5"}, ""},
		{[]string{"enumerate", "--rows", "3", "--cols", "3", "--cells", "10"}, "cells 10 out of range"},
		{[]string{"enumerate", "--cells", "x"}, `--cells: "x" is not a number`},
		{[]string{"enumerate", "--rows", "3", "--cols", "3", "--cells", "9,@0-2+6-8"}, "cell set 0-2+6-8: projections onto cells other than the last k are written by gapset enumerate only"},
		{[]string{"enumerate", "--format", "xml"}, "unknown --format"},
		{[]string{"enumerate", "--runner", "dataflow"}, "unknown --runner"},
		{[]string{"enumerate", "--runner", "universal"}, "--runner universal needs --endpoint"},
		{[]string{"enumerate", "--endpoint", "localhost:1"}, "--endpoint is for --runner universal"},
		{[]string{"enumerate", "--rows", "2", "--cols", "2", "--runner", "universal", "--endpoint", "127.0.0.1:1", "--environment_type", "LOOPBACK",
			"--out-dir", t.TempDir()}, `--endpoint "127.0.0.1:1": no job server answers there`},
		{[]string{"enumerate", "--environment_type", "kubernetes"}, "unknown --environment_type"},
		{[]string{"enumerate", "--prefix-bits", "9"}, "--prefix-bits 9: want 0..8"},
		{[]string{"enumerate", "--rows", "3", "--cols", "4", "--transpose"}, "--transpose needs a square board"},
		{[]string{"enumerate", "--out-dir", file}, "is a file, not a directory"},
		{[]string{"enumerate", "--work-dir", filepath.Join(file, "x")}, "--work-dir"},
		{[]string{"enumerate", "--work-dir", "hdfs://cluster/runs"}, `no file system for the scheme "hdfs"`},
		{[]string{"enumerate", "--work-dir", "memfs://runs", "--local-tmp", filepath.Join(file, "x")}, "--local-tmp"},
		{[]string{"enumerate", "--rows", "2", "--cols", "2", "--", "--no_such_beam_flag=1"}, "Beam option after --"},
		{[]string{"enumerate", "extra"}, "takes no arguments"},
		{[]string{"frobnicate"}, "unknown command"},
	} {
		stdout, stderr, code := command(t, nil, tc.args...)
		assert.Equal(t, 2, code, "%v: %s", tc.args, stderr)
		assert.Empty(t, stdout, "%v", tc.args)
		assert.Equal(t, 1, strings.Count(stderr, "\n"), "%v: one line: %q", tc.args, stderr)
		assert.True(t, strings.HasPrefix(stderr, "gapset-cluster: "), "%v: %q", tc.args, stderr)
		assert.Contains(t, stderr, tc.want, "%v", tc.args)
	}
}

// No line of the command's --help, or of enumerate's, is longer than 200
// characters (as gapset's own help test asks of gapset).
func TestHelpLinesAreShort(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"enumerate", "--help"}} {
		out, errs, code := command(t, nil, args...)
		require.Equal(t, 0, code, errs)
		for _, line := range strings.Split(out, "\n") {
			assert.LessOrEqual(t, len(line), 200, "%v: %.80s...", args, strings.TrimSpace(line))
		}
	}
}
