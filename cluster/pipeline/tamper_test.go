package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/internal/statedir/tamper"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// workFiles lists the files below a work directory the step manifests
// name, and the manifests themselves.
func workFiles(t *testing.T, work string) (files, manifests []string) {
	t.Helper()
	manifests, err := filepath.Glob(filepath.Join(work, "d*", manifestName))
	require.NoError(t, err)
	for _, p := range manifests {
		b, err := os.ReadFile(p)
		require.NoError(t, err)
		var m manifest
		require.NoError(t, statedir.Unseal(work, p, b, manifestFormat, &m))
		for _, r := range slices.Concat(m.Layers, m.Projections) {
			if _, err := os.Stat(filepath.Join(work, r.Name)); err == nil {
				files = append(files, r.Name)
			}
		}
	}
	slices.Sort(files)
	return slices.Compact(files), manifests
}

// The cluster's tamper campaign: the work directory of a 3x3 run failed
// at step 14, damaged (bits flipped in its files and manifests, manifest
// fields edited, files dropped, swapped, truncated, extended), each copy
// resumed. Every run must give Enumerate's files or a bad-input error of
// one line; none may panic. GAPSET_DAMAGE=N takes N random flips
// instead of 10.
func TestTamperCampaign(t *testing.T) {
	if testing.Short() {
		t.Skip("resumes some 60 damaged work directories")
	}
	flips := 10
	if n, err := strconv.Atoi(os.Getenv("GAPSET_DAMAGE")); err == nil && n > 1 {
		flips = n
	}
	l := gapset.Layout{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{9, 5}, Packed: true}
	wantDir := t.TempDir()
	_, err := gapset.Enumerate(context.Background(), l.Config(wantDir))
	require.NoError(t, err)
	want := map[string][]byte{}
	for _, k := range l.Cells {
		b, err := os.ReadFile(l.Config(wantDir).OutputPath(k))
		require.NoError(t, err)
		want[filepath.Base(l.Config(wantDir).OutputPath(k))] = b
	}
	base := t.TempDir()
	_, err = Enumerate(context.Background(), Options{Layout: l, OutDir: t.TempDir(), WorkDir: base, FailAt: "14/1/1"})
	require.ErrorContains(t, err, "injected failure")
	work := filepath.Join(base, WorkName)
	files, manifests := workFiles(t, work)
	require.NotEmpty(t, files)
	rng := rand.New(rand.NewPCG(35, 6))
	type damage struct {
		name string
		do   func(work string) error
	}
	edit := func(path string, fn func([]byte) []byte) error {
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(path, fn(b), 0o644)
	}
	flip := func(name string) damage {
		st, err := os.Stat(filepath.Join(work, name))
		require.NoError(t, err)
		off, bit := rng.Int64N(max(1, st.Size())), rng.IntN(8)
		return damage{fmt.Sprintf("flip bit %d at %d of %s", bit, off, name), func(w string) error {
			return edit(filepath.Join(w, name), func(b []byte) []byte { b[off] ^= 1 << bit; return b })
		}}
	}
	rel := func(p string) string { r, _ := filepath.Rel(work, p); return r }
	var ts []damage
	for range flips {
		ts = append(ts, flip(files[rng.IntN(len(files))]), flip(rel(manifests[rng.IntN(len(manifests))])))
	}
	newest := rel(manifests[len(manifests)-1])
	mb, err := os.ReadFile(filepath.Join(work, newest))
	require.NoError(t, err)
	fields, err := tamper.Fields(mb)
	require.NoError(t, err)
	for _, field := range fields {
		ts = append(ts, damage{"edit " + field + " of " + newest, func(w string) error {
			return edit(filepath.Join(w, newest), func(b []byte) []byte {
				out, err := tamper.Edit(b, field)
				require.NoError(t, err)
				return out
			})
		}})
	}
	for _, name := range []string{files[0], files[len(files)/2], files[len(files)-1]} {
		p := func(w string) string { return filepath.Join(w, name) }
		ts = append(ts,
			damage{"drop " + name, func(w string) error { return os.Remove(p(w)) }},
			damage{"truncate " + name, func(w string) error { return edit(p(w), func(b []byte) []byte { return b[:len(b)/2] }) }},
			damage{"extend " + name, func(w string) error { return edit(p(w), func(b []byte) []byte { return append(b, 1) }) }},
		)
	}
	for range 3 {
		a, b := files[rng.IntN(len(files))], files[rng.IntN(len(files))]
		ts = append(ts, damage{"swap " + a + " and " + b, func(w string) error {
			pa, pb := filepath.Join(w, a), filepath.Join(w, b)
			ba, err := os.ReadFile(pa)
			if err != nil {
				return err
			}
			bb, err := os.ReadFile(pb)
			if err != nil {
				return err
			}
			return errors.Join(os.WriteFile(pa, bb, 0o644), os.WriteFile(pb, ba, 0o644))
		}})
	}
	ts = append(ts,
		damage{"empty " + newest, func(w string) error { return os.WriteFile(filepath.Join(w, newest), nil, 0o644) }},
		damage{"lock a directory", func(w string) error {
			os.Remove(filepath.Join(w, statedir.LockName))
			return os.Mkdir(filepath.Join(w, statedir.LockName), 0o755)
		}},
		damage{"marker removed", func(w string) error { return os.Remove(filepath.Join(w, "gapset-state")) }},
	)
	tally := map[string]int{}
	for _, tm := range ts {
		dir := t.TempDir()
		require.NoError(t, os.CopyFS(filepath.Join(dir, WorkName), os.DirFS(work)))
		require.NoError(t, tm.do(filepath.Join(dir, WorkName)), tm.name)
		out := t.TempDir()
		_, err := Enumerate(context.Background(), Options{Layout: l, OutDir: out, WorkDir: dir})
		got := map[string][]byte{}
		entries, rerr := os.ReadDir(out)
		require.NoError(t, rerr)
		for _, e := range entries {
			b, rerr := os.ReadFile(filepath.Join(out, e.Name()))
			require.NoError(t, rerr)
			got[e.Name()] = b
		}
		switch {
		case err == nil:
			if assert.Equal(t, want, got, "%s: no error, other files", tm.name) {
				tally["same files"]++
			} else {
				tally["OTHER FILES"]++
			}
		case errors.Is(err, gapset.ErrArgs) || errors.Is(err, gapset.ErrDamaged) || errors.Is(err, gapset.ErrForeign):
			assert.NotContains(t, err.Error(), "\n", tm.name)
			assert.Empty(t, got, "%s: refused, yet files written", tm.name)
			tally["refused (exit 2)"]++
		default:
			assert.Fail(t, "not a bad-input error", "%s: %v", tm.name, err)
			tally["other error"]++
		}
		if strings.Contains(fmt.Sprint(err), "panic") {
			tally["panic"]++
		}
	}
	total := 0
	for _, v := range tally {
		total += v
	}
	t.Logf("cluster tamper campaign: %d damaged work directories resumed: %v", total, tally)
}
