package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/internal/statedir/tamper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// damage is one way to damage a copy of a checkpoint directory cp.
type damage struct {
	name string
	do   func(t *testing.T, cp string)
}

// checkpointRuns lists the run files a checkpoint's manifest names, in
// the order of their names (the newest last).
func checkpointRuns(t *testing.T, cp string) []string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(cp, "manifest.json"))
	require.NoError(t, err)
	var m any
	require.NoError(t, json.Unmarshal(b, &m))
	var runs []string
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if name, ok := v["name"].(string); ok {
				runs = append(runs, name)
			}
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(m)
	slices.Sort(runs)
	return runs
}

// editFile rewrites a file through fn.
func editFile(t *testing.T, path string, fn func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, fn(b), 0o644))
}

// tampers lists the damages of the campaign for the checkpoint cp: flips
// variants of random bit flips in run files and in the manifest, every
// manifest field edited, runs dropped, swapped, truncated and extended,
// and the directory's own files damaged.
func tampers(t *testing.T, cp string, rng *rand.Rand, flips int) []damage {
	runs := checkpointRuns(t, cp)
	require.NotEmpty(t, runs)
	var ts []damage
	flip := func(name string) damage {
		run := name
		if run == "" {
			run = runs[rng.IntN(len(runs))]
		}
		st, err := os.Stat(filepath.Join(cp, run))
		require.NoError(t, err)
		off, bit := rng.Int64N(max(1, st.Size())), rng.IntN(8)
		return damage{fmt.Sprintf("flip bit %d at %d of %s", bit, off, run), func(t *testing.T, cp string) {
			editFile(t, filepath.Join(cp, run), func(b []byte) []byte {
				if len(b) > 0 {
					b[off] ^= 1 << bit
				}
				return b
			})
		}}
	}
	for range flips {
		ts = append(ts, flip(""), flip("manifest.json"))
	}
	// The newest level-0 run: a flip there once panicked in expandRaise.
	newest := runs[len(runs)-1]
	for _, r := range runs {
		if strings.Contains(r, "-L0-") {
			newest = r
		}
	}
	for range flips / 4 {
		ts = append(ts, flip(newest))
	}
	b, err := os.ReadFile(filepath.Join(cp, "manifest.json"))
	require.NoError(t, err)
	fields, err := tamper.Fields(b)
	require.NoError(t, err)
	for _, field := range fields {
		ts = append(ts, damage{"edit manifest field " + field, func(t *testing.T, cp string) {
			editFile(t, filepath.Join(cp, "manifest.json"), func(b []byte) []byte {
				out, err := tamper.Edit(b, field)
				require.NoError(t, err)
				return out
			})
		}})
	}
	if _, ok, err := tamper.DropPart(b, "runs"); err == nil && ok {
		ts = append(ts, damage{"a part dropped from a layer's run, its count lowered, sealed again", func(t *testing.T, cp string) {
			editFile(t, filepath.Join(cp, "manifest.json"), func(b []byte) []byte {
				out, _, err := tamper.DropPart(b, "runs")
				require.NoError(t, err)
				return out
			})
		}})
	}
	for _, run := range []string{runs[0], runs[len(runs)/2], newest} {
		path := func(cp string) string { return filepath.Join(cp, run) }
		ts = append(ts,
			damage{"drop " + run, func(t *testing.T, cp string) { require.NoError(t, os.Remove(path(cp))) }},
			damage{"truncate " + run, func(t *testing.T, cp string) {
				editFile(t, path(cp), func(b []byte) []byte { return b[:len(b)/2] })
			}},
			damage{"extend " + run, func(t *testing.T, cp string) {
				editFile(t, path(cp), func(b []byte) []byte { return append(b, 0) })
			}},
			damage{"empty " + run, func(t *testing.T, cp string) {
				editFile(t, path(cp), func([]byte) []byte { return nil })
			}},
			damage{"replace by a directory " + run, func(t *testing.T, cp string) {
				require.NoError(t, os.Remove(path(cp)))
				require.NoError(t, os.Mkdir(path(cp), 0o755))
			}},
		)
	}
	for range max(3, flips/5) {
		a, b := runs[rng.IntN(len(runs))], runs[rng.IntN(len(runs))]
		if a == b {
			continue
		}
		ts = append(ts, damage{"swap " + a + " and " + b, func(t *testing.T, cp string) {
			pa, pb := filepath.Join(cp, a), filepath.Join(cp, b)
			require.NoError(t, os.Rename(pa, pa+".x"))
			require.NoError(t, os.Rename(pb, pa))
			require.NoError(t, os.Rename(pa+".x", pb))
		}})
	}
	ts = append(ts,
		damage{"empty manifest", func(t *testing.T, cp string) {
			require.NoError(t, os.WriteFile(filepath.Join(cp, "manifest.json"), nil, 0o644))
		}},
		damage{"manifest removed (starts over)", func(t *testing.T, cp string) {
			require.NoError(t, os.Remove(filepath.Join(cp, "manifest.json")))
		}},
		damage{"manifest a directory", func(t *testing.T, cp string) {
			require.NoError(t, os.Remove(filepath.Join(cp, "manifest.json")))
			require.NoError(t, os.Mkdir(filepath.Join(cp, "manifest.json"), 0o755))
		}},
		damage{"lock a directory", func(t *testing.T, cp string) {
			os.Remove(filepath.Join(cp, "lock"))
			require.NoError(t, os.Mkdir(filepath.Join(cp, "lock"), 0o755))
		}},
		damage{"marker removed", func(t *testing.T, cp string) {
			require.NoError(t, os.Remove(filepath.Join(cp, "gapset-state")))
		}},
		damage{"checkpoint a regular file", func(t *testing.T, cp string) {
			require.NoError(t, os.RemoveAll(cp))
			require.NoError(t, os.WriteFile(cp, []byte("x"), 0o644))
		}},
	)
	return ts
}

// copyDir copies a directory of files.
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	require.NoError(t, os.CopyFS(to, os.DirFS(from)))
}

// The tamper campaign: checkpoints of 3x3 and 2x4 enumerations (stopped
// at several steps) damaged in every way tampers lists, each resumed by
// the binary. Every run must exit 0 with the files of an uninterrupted
// run, or exit 2 with one line; none may panic, hang or exit otherwise.
// GAPSET_DAMAGE=N takes N random flips per checkpoint instead of 12. The
// board not square is 2x4 by default (a checkpoint of 30 files, copied for
// every damage), 2x4 and 3x4 (184 files) with GAPSET_SLOW=1.
func TestCheckpointTamperCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and resumes some 250 damaged checkpoints")
	}
	flips := 12
	if n, err := strconv.Atoi(os.Getenv("GAPSET_DAMAGE")); err == nil && n > 1 {
		flips = n
	}
	bin := gapsetBinary(t)
	rng := rand.New(rand.NewPCG(35, 5))
	tally := map[string]int{}
	type board struct {
		rows, cols, gap int
		cells           []int
		memory          int64
		stops           []int // progress reports before the stop
	}
	boards := []board{
		{3, 3, 6, []int{9, 5}, 64 << 20, []int{12, 60}},
		{2, 4, 6, []int{8, 6}, 64 << 20, []int{20}},
	}
	if slowtest.On() {
		boards = append(boards, board{3, 4, 4, []int{12, 8}, 64 << 20, []int{40}})
	}
	for _, b := range boards {
		cells := strings.Trim(strings.ReplaceAll(fmt.Sprint(b.cells), " ", ","), "[]")
		args := func(dir string) []string {
			return []string{"enumerate", "-q", "--rows", strconv.Itoa(b.rows), "--cols", strconv.Itoa(b.cols), "--gap", strconv.Itoa(b.gap),
				"--cells", cells, "--packed", "--memory", strconv.Itoa(int(b.memory >> 20)), "--checkpoint-every", "0", "--out-dir", dir}
		}
		ref := t.TempDir()
		code, _, errs := runLong(t, bin, args(ref)...)
		require.Equal(t, 0, code, errs)
		want := keyFiles(t, ref)
		for _, stop := range b.stops {
			base := t.TempDir()
			cp := filepath.Join(base, gapset.CheckpointName)
			ctx, cancel := context.WithCancel(context.Background())
			n := 0
			_, err := gapset.Enumerate(ctx, gapset.Config{Rows: b.rows, Cols: b.cols, MaxGap: b.gap, Cells: b.cells, Packed: true,
				Memory: b.memory, Dir: base, Checkpoint: cp, Progress: func(gapset.Progress) {
					if n++; n == stop {
						cancel()
					}
				}})
			require.ErrorIs(t, err, context.Canceled)
			for _, tm := range tampers(t, cp, rng, flips) {
				dir := t.TempDir()
				copyDir(t, base, dir)
				tm.do(t, filepath.Join(dir, gapset.CheckpointName))
				code, _, errs := runLong(t, bin, args(dir)...)
				what := fmt.Sprintf("%dx%d stop %d, %s", b.rows, b.cols, stop, tm.name)
				switch code {
				case 0:
					if assert.Equal(t, want, keyFiles(t, dir), "%s: exit 0 with other files", what) {
						t.Logf("%s: exit 0, the same files", what)
						tally["exit 0, same files"]++
					} else {
						tally["exit 0, OTHER FILES"]++
					}
				case 2:
					assert.Equal(t, 1, strings.Count(errs, "\n"), "%s: %q", what, errs)
					assert.NotContains(t, errs, "panic", what)
					assert.Empty(t, keyFiles(t, dir), "%s: refused, yet files written", what)
					tally["exit 2"]++
				default:
					assert.Fail(t, "exit status outside the contract", "%s: exit %d: %s", what, code, errs)
					tally[fmt.Sprintf("exit %d", code)]++
				}
			}
		}
	}
	total := 0
	for _, v := range tally {
		total += v
	}
	t.Logf("tamper campaign: %d damaged checkpoints resumed: %v", total, tally)
	assert.GreaterOrEqual(t, total, 200)
}

// runLong is runTimed with room for a loaded machine: exit code -1 is a
// run of more than two minutes.
func runLong(t *testing.T, bin string, args ...string) (int, string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		return -1, out.String(), errb.String()
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}
