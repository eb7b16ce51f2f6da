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
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The damage campaign (GAPSET_DAMAGE=1): truncations and single-byte flips
// of a 3x3 key-set file, a .bdd and a pattern database, each run through
// the commands that read it (a load and solve, and gapset verify), as is
// and with the checksum recomputed after the damage. It counts runs that
// exit 0 with altered output, hangs and panics, the share of changed files
// refused on load, and changed files that verify accepts. Figures go to
// the test log (and NOTES.md).
//
//	GAPSET_DAMAGE=1 go test ./cmd/gapset -run TestDamageCampaign -v -timeout 60m
func TestDamageCampaign(t *testing.T) {
	if os.Getenv("GAPSET_DAMAGE") == "" {
		t.Skip("set GAPSET_DAMAGE=1 to run the damage campaign (minutes)")
	}
	// GAPSET_DAMAGE=N > 1 scales the random variants down to N per file (a quick look)
	bodyFlips, truncs, headerStep := 150, 30, 1
	if n, err := strconv.Atoi(os.Getenv("GAPSET_DAMAGE")); err == nil && n > 1 {
		bodyFlips, truncs, headerStep = n, n/5, 7
	}
	bin := gapsetBinary(t)
	dir := t.TempDir()
	run := func(args ...string) (int, string, string) {
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
