package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The damage campaign (GAPSET_SLOW=1): truncations and single-byte flips
// of a 3x3 key-set file, a .bdd and a pattern database, each run through
// the commands that read it (a load and solve, and gapset verify), as is
// and with the checksum recomputed after the damage. It counts runs that
// exit 0 with altered output, hangs and panics, the share of changed files
// refused on load, and changed files that verify accepts. Figures go to
// the test log (and NOTES.md).
//
//	GAPSET_SLOW=1 go test ./cmd/gapset -run TestDamageCampaign -v -timeout 60m
func TestDamageCampaign(t *testing.T) {
	slowtest.Skip(t, "run the damage campaign (minutes)")
	// GAPSET_DAMAGE=N > 1 scales the random variants down to N per file (a quick look)
	bodyFlips, truncs, headerStep := 150, 30, 1
	if n, err := strconv.Atoi(os.Getenv("GAPSET_DAMAGE")); err == nil && n > 1 {
		bodyFlips, truncs, headerStep = n, n/5, 7
	}
	bin := gapsetBinary(t)
	dir := t.TempDir()
	run := func(args ...string) (int, string, string) { return runTimed(t, bin, args...) }
	mustRun := func(args ...string) {
		code, _, errs := run(args...)
		require.Equal(t, 0, code, "%v: %s", args, errs)
	}
	mustRun("enumerate", "-q", "--rows", "3", "--cols", "3", "--gap", "0", "--cells", "6", "--out-dir", dir)
	keys := filepath.Join(dir, "Gap0_6.keys")
	bddFile := filepath.Join(dir, "Gap0_6.bdd")
	mustRun("build", "-q", "--keys", keys, "--out", bddFile)
	pdbDir := filepath.Join(dir, "pdb")
	mustRun("pdb", "build", "-q", "--rows", "3", "--cols", "3", "--partition", "4-4", "--out", pdbDir)
	pdbFile := filepath.Join(pdbDir, "3x3-1-2-3-4.pdb")
	boards := filepath.Join(dir, "boards.txt")
	require.NoError(t, os.WriteFile(boards, []byte("1 8 6 7 2 5 4 3 0 1\n2 8 1 3 4 0 2 7 6 5\n3 1 2 3 4 5 6 0 7 8\n"), 0o644))

	type kind struct {
		name string
		path string
		// commands reading the file at path (a load and a use)
		use [][]string
		// recrc recomputes the checksum of a damaged image
		recrc func([]byte) []byte
		// meta marks bytes that are metadata, not content (BDD build time)
		meta func(i int) bool
	}
	castagnoli := crc32.MakeTable(crc32.Castagnoli)
	tailCRC := func(b []byte) []byte {
		if len(b) < 4 {
			return b
		}
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
		return b
	}
	s33 := []string{"--rows", "3", "--cols", "3", "-q", "-f", "json", "--threads", "1", "-i", boards} // one thread: nodes do not depend on timing
	kinds := []kind{
		{name: "key set", path: keys, recrc: tailCRC, use: [][]string{
			{"count", keys},
			append([]string{"solve", "-H", "gap0", "--keys", keys}, s33...),
		}},
		{name: "BDD", path: bddFile, recrc: tailCRC, meta: func(i int) bool { return i >= 40 && i < 48 }, use: [][]string{
			{"report", "--format", "json", bddFile},
			append([]string{"solve", "-H", "gap0", "--bdd", bddFile}, s33...),
		}},
		{name: "pattern database", path: pdbFile, use: [][]string{
			append([]string{"solve", "-H", "pdb44", "--pdb", pdbDir}, s33...),
		}, recrc: func(b []byte) []byte {
			if len(b) < 40 {
				return b
			}
			binary.LittleEndian.PutUint32(b[36:], crc32.Update(crc32.Checksum(b[:36], castagnoli), castagnoli, b[40:]))
			return b
		}},
	}
	var report strings.Builder
	fmt.Fprintln(&report, "| file | checksum | variants | changed | refused on load | exit 0, altered output | hangs | panics | changed, accepted by verify | metadata only |")
	fmt.Fprintln(&report, "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	rng := rand.New(rand.NewPCG(15, 2026))
	for _, k := range kinds {
		good, err := os.ReadFile(k.path)
		require.NoError(t, err)
		want := make([]string, len(k.use))
		for i, args := range k.use {
			code, out, errs := run(args...)
			require.Equal(t, 0, code, "%v: %s", args, errs)
			want[i] = normalize(out)
		}
		// the variants: every truncation point in the header, some after;
		// a flip of every header byte, and random flips in the body
		var variants [][]byte
		var what []string
		for n := 0; n < min(len(good), 72); n += 3 * headerStep {
			variants = append(variants, bytes.Clone(good[:n]))
			what = append(what, fmt.Sprintf("truncated to %d bytes", n))
		}
		for i := 0; i < truncs; i++ {
			n := 72 + rng.IntN(len(good)-72)
			variants = append(variants, bytes.Clone(good[:n]))
			what = append(what, fmt.Sprintf("truncated to %d bytes", n))
		}
		for i := 0; i < 72; i += headerStep {
			b := bytes.Clone(good)
			x := byte(1 + rng.IntN(255))
			b[i] ^= x
			variants = append(variants, b)
			what = append(what, fmt.Sprintf("byte %d ^= %#x", i, x))
		}
		for i := 0; i < bodyFlips; i++ {
			b := bytes.Clone(good)
			at, x := 72+rng.IntN(len(good)-72), byte(1+rng.IntN(255))
			b[at] ^= x
			variants = append(variants, b)
			what = append(what, fmt.Sprintf("byte %d ^= %#x", at, x))
		}
		for _, recrc := range []bool{false, true} {
			var n, changed, refused, altered, hangs, panics, accepted, metaOnly int
			for vi, v := range variants {
				v = bytes.Clone(v)
				if recrc {
					v = k.recrc(v)
				}
				if bytes.Equal(v, good) {
					continue // the flip hit the checksum, now recomputed
				}
				n++
				onlyMeta := k.meta != nil && len(v) == len(good) && func() bool {
					for i := range v {
						if v[i] != good[i] && !k.meta(i) && !(recrc && i >= len(v)-4) {
							return false
						}
					}
					return true
				}()
				require.NoError(t, os.WriteFile(k.path, v, 0o644))
				loadRefused := false
				for i, args := range k.use {
					code, out, errs := run(args...)
					switch {
					case code == -1:
						hangs++
					case strings.Contains(errs, "panic:") || strings.Contains(errs, "goroutine "):
						panics++
					case code == 0 && normalize(out) != want[i]:
						if !(recrc && onlyMeta) {
							altered++
							t.Logf("%s (checksum recomputed %t, %s): exit 0 with altered output from %v", k.name, recrc, what[vi], args[:2])
						}
					case code != 0:
						loadRefused = true
					}
				}
				if onlyMeta && recrc {
					metaOnly++
					continue
				}
				changed++
				if loadRefused {
					refused++
				}
				if code, _, errs := run("verify", k.path); code == 0 {
					accepted++
					t.Logf("%s (checksum recomputed %t, %s): verify accepted a changed file", k.name, recrc, what[vi])
				} else if strings.Contains(errs, "panic:") {
					panics++
				}
			}
			crc := "as damaged"
			if recrc {
				crc = "recomputed"
			}
			fmt.Fprintf(&report, "| %s | %s | %d | %d | %d (%.0f%%) | %d | %d | %d | %d | %d |\n",
				k.name, crc, n, changed, refused, 100*float64(refused)/float64(max(changed, 1)), altered, hangs, panics, accepted, metaOnly)
			assert.Zero(t, hangs, "%s: hangs", k.name)
			assert.Zero(t, panics, "%s: panics", k.name)
			assert.Zero(t, accepted, "%s: verify accepted changed files", k.name)
			if !recrc {
				assert.Zero(t, altered, "%s: exit 0 with altered output", k.name)
			}
		}
		require.NoError(t, os.WriteFile(k.path, good, 0o644))
	}
	t.Log("\n" + report.String())
	if out := os.Getenv("GAPSET_DAMAGE_OUT"); out != "" {
		require.NoError(t, os.WriteFile(out, []byte(report.String()), 0o644))
	}
}

// runTimed runs the binary with a timeout of 30 s: exit code -1 is a hang.
func runTimed(t *testing.T, bin string, args ...string) (int, string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		return -1, out.String(), errb.String() // a hang
	}
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

// normalize drops the fields of an output that vary from run to run (times).
func normalize(out string) string {
	var sb strings.Builder
	for _, line := range strings.Split(out, "\n") {
		for _, f := range strings.Split(line, ",") {
			if strings.HasPrefix(strings.TrimLeft(f, "{ "), `"seconds":`) {
				continue // solve's wall time
			}
			sb.WriteString(f + ",")
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

// The coherent forgeries (GAPSET_SLOW=1, as the damage campaign): files
// made the way the toolkit makes its own, so that every check short of the
// full one passes them.
//
//   - Pattern databases (3x3, 4-4, byte and compact files): 2 added to the
//     entries of one group (every non-zero one, those of at least a
//     threshold, or a random 1%), the stored step as it was or raised by 2,
//     written by the database writer (checksum recomputed). No run may
//     exit 0 with a wrong length: a load checks these files whole.
//
//   - Key sets (3x3 Gap0_6, 3x4 Gap0_8): valid keys removed (one, 1%, 10%;
//     three draws each), written by the key-set writer (count and checksum
//     coherent); BDDs built from them by gapset build (a member removed:
//     count and checksum coherent). A load cannot tell (docs/file-checks.md):
//     the wrong lengths printed with exit 0 are counted, and must be the
//     figures the docs give; each is longer than the optimum (removing
//     members only raises h_G:2N), and gapset verify refuses every file.
//
//     GAPSET_SLOW=1 go test ./cmd/gapset -run TestForgeryCampaign -v -timeout 30m
func TestForgeryCampaign(t *testing.T) {
	slowtest.Skip(t, "run the forgery campaign (minutes)")
	bin := gapsetBinary(t)
	dir := t.TempDir()
	run := func(args ...string) (int, string, string) { return runTimed(t, bin, args...) }
	mustRun := func(args ...string) string {
		code, out, errs := run(args...)
		require.Equal(t, 0, code, "%v: %s", args, errs)
		return out
	}
	// lengths reads solve's CSV: the length of each board, in order.
	lengths := func(out string) []int {
		var ls []int
		for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
			f := strings.Split(line, ",")
			n, err := strconv.Atoi(f[2])
			require.NoError(t, err, line)
			ls = append(ls, n)
		}
		return ls
	}
	boardFile := func(rows, cols, n int) (string, []int) {
		p := filepath.Join(dir, fmt.Sprintf("boards%dx%d.txt", rows, cols))
		r, c := strconv.Itoa(rows), strconv.Itoa(cols)
		require.NoError(t, os.WriteFile(p, []byte(mustRun("gen", "--rows", r, "--cols", c, "--count", strconv.Itoa(n), "--seed", "2026")), 0o644))
		return p, lengths(mustRun("solve", "-q", "--rows", r, "--cols", c, "--threads", "1", "-f", "csv", "-H", "md", "-i", p))
	}
	var report strings.Builder

	// Pattern databases.
	boards33, truth33 := boardFile(3, 3, 50)
	part, err := pdb.ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	fmt.Fprintln(&report, "| database forgery | refused at load | exit 0, wrong lengths | wrong lengths printed (any exit) |")
	fmt.Fprintln(&report, "|---|---:|---:|---:|")
	rng := rand.New(rand.NewPCG(25, 11))
	for _, compact := range []bool{false, true} {
		pdbDir := filepath.Join(dir, fmt.Sprintf("pdb-compact-%t", compact))
		args := []string{"pdb", "build", "-q", "--rows", "3", "--cols", "3", "--partition", "4-4", "--out", pdbDir}
		if compact {
			args = append(args, "--compact")
		}
		mustRun(args...)
		solve := []string{"solve", "-q", "--rows", "3", "--cols", "3", "--threads", "1", "-f", "csv", "-H", "pdb44", "--pdb", pdbDir, "-i", boards33}
		require.Equal(t, truth33, lengths(mustRun(solve...)))
		for gi, g := range part.Groups {
			path := part.Paths(pdbDir)[gi]
			good, err := os.ReadFile(path)
			require.NoError(t, err)
			table, step, err := pdb.Read(path, 3, 3, g)
			require.NoError(t, err)
			top := slices.Max(table)
			for _, how := range []string{"every non-zero entry", "entries >= 6", "entries >= 12", "the largest entries", "1% of the entries"} {
				for _, dstep := range []int{0, 2} {
					bad := append([]uint8(nil), table...)
					for i, v := range bad {
						var raise bool
						switch how {
						case "every non-zero entry":
							raise = v != 0
						case "1% of the entries":
							raise = v != 0 && rng.IntN(100) == 0
						case "the largest entries":
							raise = v == top
						default:
							th, _ := strconv.Atoi(strings.TrimPrefix(how, "entries >= "))
							raise = int(v) >= th
						}
						if raise {
							bad[i] += 2
						}
					}
					if compact {
						tables := make([][]uint8, len(part.Groups))
						for i := range tables {
							tables[i] = make([]uint8, len(bad)) // a placeholder: only group gi is written
							if i == gi {
								tables[i] = bad
							} else if tables[i], _, err = pdb.Read(part.Paths(pdbDir)[i], 3, 3, part.Groups[i]); err != nil {
								t.Fatal(err)
							}
						}
						set, err := (&pdb.Databases{Part: part, Tables: tables, Steps: []int{step, step}}).Compact(1)
						require.NoError(t, err)
						require.NoError(t, pdb.WriteCompact(path, 3, 3, g, set.Nibbles[gi], step+dstep))
					} else {
						require.NoError(t, pdb.Write(path, 3, 3, g, bad, step+dstep))
					}
					code, out, errs := run(solve...)
					refused, wrong, printed := 0, 0, 0
					if code != 0 && out == "" {
						refused = 1
					}
					if out != "" {
						for i, l := range lengths(out) {
							if l != truth33[i] {
								printed++
								if code == 0 {
									wrong++
								}
							}
						}
					}
					what := fmt.Sprintf("group %v (compact %t): 2 added to %s, step +%d", g, compact, how, dstep)
					assert.Equal(t, 1, refused, "%s: not refused at load (exit %d: %s)", what, code, errs)
					assert.Zero(t, printed, "%s: wrong lengths printed", what)
					fmt.Fprintf(&report, "| %s | %d | %d | %d |\n", what, refused, wrong, printed)
				}
			}
			require.NoError(t, os.WriteFile(path, good, 0o644))
		}
	}

	// Key sets and BDDs.
	fmt.Fprintln(&report, "\n| set forgery | boards | removed | draws | exit 0, wrong length (keys) | (BDD) | shorter than the optimum | refused by verify |")
	fmt.Fprintln(&report, "|---|---:|---|---:|---:|---:|---:|---:|")
	boards34, truth34 := boardFile(3, 4, 30)
	totalWrong := 0
	for _, cfg := range []struct {
		rows, cols, cells int
		boards            string
		truth             []int
	}{{3, 3, 6, boards33, truth33}, {3, 4, 8, boards34, truth34}} {
		r, c := strconv.Itoa(cfg.rows), strconv.Itoa(cfg.cols)
		setDir := filepath.Join(dir, "sets"+r+"x"+c)
		require.NoError(t, os.MkdirAll(setDir, 0o755))
		mustRun("enumerate", "-q", "--rows", r, "--cols", c, "--gap", "0", "--cells", strconv.Itoa(cfg.cells), "--out-dir", setDir)
		name := fmt.Sprintf("Gap0_%d", cfg.cells)
		h, keys, err := keyset.ReadAll(filepath.Join(setDir, name+".keys"))
		require.NoError(t, err)
		for _, removed := range []string{"1 key", "1%", "10%"} {
			n := 1
			switch removed {
			case "1%":
				n = len(keys) / 100
			case "10%":
				n = len(keys) / 10
			}
			wrongKeys, wrongBDD, shorter, refused := 0, 0, 0, 0
			const draws = 3
			for d := 0; d < draws; d++ {
				drop := map[int]bool{}
				for len(drop) < n {
					drop[rng.IntN(len(keys))] = true
				}
				var kept []uint64
				for i, k := range keys {
					if !drop[i] {
						kept = append(kept, k)
					}
				}
				vdir := filepath.Join(setDir, fmt.Sprintf("%s-%d", strings.TrimSuffix(strings.ReplaceAll(removed, " ", ""), "%"), d))
				require.NoError(t, os.MkdirAll(vdir, 0o755))
				kf, bf := filepath.Join(vdir, name+".keys"), filepath.Join(vdir, name+".bdd")
				require.NoError(t, keyset.WriteFile(kf, h, kept))
				mustRun("build", "-q", "--keys", kf, "--out", bf)
				for _, src := range [][]string{{"--keys", kf}, {"--bdd", bf}} {
					code, out, errs := run(append([]string{"solve", "-q", "--rows", r, "--cols", c, "--threads", "1", "-f", "csv", "-H", "gap0", "-i", cfg.boards}, src...)...)
					require.Equal(t, 0, code, "a coherent forgery loads: %s", errs)
					for i, l := range lengths(out) {
						if l == cfg.truth[i] {
							continue
						}
						if src[0] == "--keys" {
							wrongKeys++
						} else {
							wrongBDD++
						}
						if l < cfg.truth[i] {
							shorter++
						}
					}
					code, _, _ = run("verify", src[1])
					if code == 2 {
						refused++
					}
				}
			}
			totalWrong += wrongKeys + wrongBDD
			assert.Zero(t, shorter, "removing members only raises the bound")
			assert.Equal(t, 2*draws, refused, "verify refuses every forged set")
			fmt.Fprintf(&report, "| %dx%d %s | %d | %s (%d) | %d | %d | %d | %d | %d of %d |\n",
				cfg.rows, cfg.cols, name, len(cfg.truth), removed, n, draws, wrongKeys, wrongBDD, shorter, refused, 2*draws)
		}
	}
	t.Log("\n" + report.String())
	if out := os.Getenv("GAPSET_DAMAGE_OUT"); out != "" {
		require.NoError(t, os.WriteFile(out+".forgeries", []byte(report.String()), 0o644))
	}
	assert.Equal(t, forgedSetWrongAnswers, totalWrong, "the count docs/file-checks.md gives")
}

// forgedSetWrongAnswers is the number of wrong lengths printed with exit 0
// by TestForgeryCampaign's forged key sets and BDDs (fixed seeds, one
// thread: the same every run), as docs/file-checks.md and NOTES.md state it.
const forgedSetWrongAnswers = 142
