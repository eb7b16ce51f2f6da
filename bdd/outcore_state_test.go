package bdd

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gapset/gapset/internal/slowtest"
	"github.com/gapset/gapset/internal/statedir"
	"github.com/gapset/gapset/keyset"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var errStop = errors.New("stopped by the test")

// stopAt is a Checkpointed hook that stops the build at its n-th
// checkpoint (from 1), counting them in *seen.
func stopAt(n int, seen *int) func(bool, int) error {
	return func(bool, int) error {
		*seen++
		if *seen == n {
			return errStop
		}
		return nil
	}
}

// openState is OpenState for the tests: nothing synced (the fsyncs of
// hundreds of checkpoints take minutes on a loaded disk).
func openState(t *testing.T, dir string, fresh bool) (*State, error) {
	t.Helper()
	st, err := OpenState(dir, fresh)
	if st != nil {
		st.noSync = true
	}
	return st, err
}

// resumeCase is a key file and the build of it to stop and resume.
type resumeCase struct {
	name          string
	path          string
	rows, cols, k int
	kb            KeysBuild
	oc            OutOfCore
}

func (c resumeCase) build(t *testing.T, st *State, hook func(bool, int) error, onResume func(Resumed)) (Built, error) {
	oc := c.oc
	oc.State, oc.Checkpointed, oc.OnResume = st, hook, onResume
	return BuildOutOfCore(c.path, c.rows*c.cols, c.k, c.kb, oc)
}

// reference is c's build never stopped (closed) and its file's bytes.
func (c resumeCase) reference(t *testing.T) (Built, []byte) {
	t.Helper()
	ref, err := c.build(t, nil, nil, nil)
	require.NoError(t, err, c.name)
	want := encodedAs(t, ref.BDD, c.rows, c.cols, c.k)
	require.NoError(t, ref.BDD.Close())
	return ref, want
}

func resumeCases(t *testing.T) []resumeCase {
	_, g2 := sets3x3(t)
	dir := t.TempDir()
	var cases []resumeCase
	for _, k := range []int{5, 7} {
		keys := project(g2, k)
		h := keyset.Header{Rows: 3, Cols: 3, Cells: k, Gap: 2}
		path := filepath.Join(dir, h.Name()+".keys")
		require.NoError(t, keyset.WriteFile(path, h, keys))
		o, err := NamedOrder("natural", 3, 3, k)
		require.NoError(t, err)
		kb := KeysBuild{Order: o, Count: uint64(len(keys)), ZDD: true}
		// no bottom pass with levels in parts, a small bottom pass (in
		// ranks), the density's (on 7 cells: the others take seconds)
		for i, oc := range []OutOfCore{{Memory: 1 << 30}, {Memory: 2 << 10, Bottom: NoBottom}, {Memory: 1 << 30, Bottom: 3}} {
			if k == 7 && i > 0 {
				break
			}
			kb.Encoding = []Encoding{Cells, Cells, Ranks}[i]
			cases = append(cases, resumeCase{fmt.Sprintf("%s %v bottom %d budget %d", h.Name(), kb.Encoding, oc.Bottom, oc.Memory), path, 3, 3, k, kb, oc})
		}
	}
	return cases
}

// A build stopped after any checkpoint (the bottom pass, any level, of the
// BDD and of the ZDD count's build) and resumed gives the file of a build
// never stopped, says where it continues, and is stopped and resumed
// again as well; the state goes only when the caller removes it. By
// default the stops are the first and last two checkpoints of the build,
// the two around the BDD's end and one in the middle of each stage; with
// GAPSET_SLOW=1 also every seventh.
func TestOutOfCoreResumes(t *testing.T) {
	for _, c := range resumeCases(t) {
		ref, want := c.reference(t)
		// count the checkpoints of a whole resumable build
		dir := filepath.Join(t.TempDir(), "state")
		st, err := openState(t, dir, false)
		require.NoError(t, err)
		total := 0
		got, err := c.build(t, st, stopAt(-1, &total), nil)
		require.NoError(t, err, c.name)
		assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), c.name)
		require.NoError(t, got.BDD.Close())
		require.NoError(t, st.Remove())
		assert.NoDirExists(t, dir)
		L := 4 * c.k
		assert.Equal(t, 2*(L-max(ref.BDD.Bottom, 1)+1), total, "%s: a checkpoint a level, one for the bottom pass", c.name)

		// every checkpoint of the short builds, else the first ones, the
		// last ones and some between, in both stages
		var stops []int
		for stop := 1; stop <= total; stop++ {
			middle := stop == total/4 || stop == total*3/4 || slowtest.On() && stop%7 == 0
			if total <= 12 || stop <= 2 || stop >= total-1 || stop%(total/2) <= 1 || middle {
				stops = append(stops, stop)
			}
		}
		for _, stop := range stops {
			msg := fmt.Sprintf("%s stopped at checkpoint %d of %d", c.name, stop, total)
			st, err := openState(t, dir, false)
			require.NoError(t, err)
			seen := 0
			_, err = c.build(t, st, stopAt(stop, &seen), nil)
			require.ErrorIs(t, err, errStop, msg)
			st.Close()
			// resumed and stopped again two checkpoints on, then resumed to the end
			var told []Resumed
			tell := func(r Resumed) { told = append(told, r) }
			for again := 2; ; again = -1 {
				st, err = openState(t, dir, false)
				require.NoError(t, err)
				seen = 0
				got, err = c.build(t, st, stopAt(again, &seen), tell)
				if again > 0 && stop+again <= total {
					require.ErrorIs(t, err, errStop, msg)
					st.Close()
					continue
				}
				require.NoError(t, err, msg)
				break
			}
			assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), msg)
			assert.Equal(t, ref.ZDDNodes, got.ZDDNodes, msg)
			assert.Equal(t, ref.BDD.Count, got.BDD.Count, msg)
			assert.Equal(t, ref.BDD.Bottom, got.BDD.Bottom, msg)
			assert.Equal(t, ref.BDD.Parts, got.BDD.Parts, msg)
			require.NotEmpty(t, told, msg)
			r := told[0]
			assert.Equal(t, stop > total/2, r.ZDD, msg)
			assert.Equal(t, L, r.Levels, msg)
			if r.ZDD {
				assert.Equal(t, total-stop-1, r.Next, "%s: continues after the level it stopped at", msg)
			} else {
				assert.Equal(t, total/2-stop-1, r.Next, msg)
			}
			assert.Contains(t, r.String(), "resuming the out-of-core build from "+dir, msg)
			assert.Contains(t, r.String(), fmt.Sprintf("of %d done", L), msg)
			require.NoError(t, got.BDD.Close())
			require.NoError(t, st.Remove())
			assert.NoDirExists(t, dir, msg)
		}
	}
}

// stoppedState leaves in a fresh state directory the build of c stopped at
// checkpoint stop and returns the directory.
func stoppedState(t *testing.T, c resumeCase, stop int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "state")
	st, err := openState(t, dir, false)
	require.NoError(t, err)
	seen := 0
	_, err = c.build(t, st, stopAt(stop, &seen), nil)
	require.ErrorIs(t, err, errStop)
	st.Close()
	return dir
}

// tree is every file of dir and its bytes.
func stateTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	require.NoError(t, filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			out[rel], err = os.ReadFile(p)
		}
		return err
	}))
	return out
}

// A state with any byte of its manifest, of its streams or of its node
// files flipped (every byte of the small ones, a sample of the node
// files: every chunk's first and last bytes, every byte a node is in,
// random ones), a file cut short or missing, is refused as damaged, and
// left as it was; the state undamaged still resumes to the right file.
func TestOutOfCoreStateRefusesDamage(t *testing.T) {
	cases := resumeCases(t)
	c := cases[1] // 5 cells, levels in parts, no bottom pass: 20 levels
	_, want := c.reference(t)
	L := 4 * c.k
	dir := stoppedState(t, c, L+L/2) // in the ZDD's build: both stages' files
	// what a stop may leave beside the state (the stream read last) goes
	// first, as any resume removes it
	st, err := openState(t, dir, false)
	require.NoError(t, err)
	id, err := identify(c.path, c.rows*c.cols, c.k, c.kb)
	require.NoError(t, err)
	_, ok, err := st.resume(id)
	require.NoError(t, err)
	require.True(t, ok)
	st.Close()
	before := stateTree(t, dir)
	names := slices.Sorted(func(yield func(string) bool) {
		for n := range before {
			if !yield(n) {
				return
			}
		}
	})
	require.Equal(t, []string{"bdd/nodes", statedir.MarkerName, statedir.LockName, "manifest.json", fmt.Sprintf("zdd/level-%d", L/2), "zdd/nodes"}, names)
	// the stream of a level that did not complete stays when the resume is
	// refused: refused first, nothing touched
	stray := filepath.Join(dir, "zdd", fmt.Sprintf("level-%d", L/2-1))
	require.NoError(t, os.WriteFile(stray, []byte("x"), 0o644))
	nodes := filepath.Join(dir, "bdd", nodesName)
	good, err := os.ReadFile(nodes)
	require.NoError(t, err)
	bad := bytes.Clone(good)
	bad[len(bad)/2] ^= 1
	require.NoError(t, os.WriteFile(nodes, bad, 0o644))
	st, err = openState(t, dir, false)
	require.NoError(t, err)
	_, err = c.build(t, st, nil, nil)
	st.Close()
	require.ErrorIs(t, err, statedir.ErrDamaged)
	assert.FileExists(t, stray, "a refused resume removed the unfinished level's stream")
	require.NoError(t, os.WriteFile(nodes, good, 0o644))
	require.NoError(t, os.Remove(stray))
	refusesDamage(t, c, dir, want, nil)
}

// refusesDamage flips, cuts and removes the files of the stopped state in
// dir one at a time: each damage is refused as damaged in one line and
// leaves the state as it was; the state undamaged then resumes to want.
// In the node files named in unused, a flip of a byte no node is in (a
// zero byte) may also be ignored: a copy of the state must then resume to
// want.
func refusesDamage(t *testing.T, c resumeCase, dir string, want []byte, unused map[string]bool) {
	t.Helper()
	before := stateTree(t, dir)
	names := slices.Sorted(maps.Keys(before))
	refused := func(msg string) {
		t.Helper()
		st, err := openState(t, dir, false)
		require.NoError(t, err, msg)
		defer st.Close()
		got, err := c.build(t, st, nil, nil)
		if err == nil {
			got.BDD.Close()
		}
		require.ErrorIs(t, err, statedir.ErrDamaged, msg)
		assert.Equal(t, 1, len(strings.Split(err.Error(), "\n")), msg)
	}
	ignored := 0
	refusedOrRight := func(msg string) {
		t.Helper()
		cp := filepath.Join(t.TempDir(), "state")
		for name, b := range stateTree(t, dir) {
			require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(cp, name)), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(cp, name), b, 0o644))
		}
		st, err := openState(t, cp, false)
		require.NoError(t, err, msg)
		defer st.Close()
		got, err := c.build(t, st, nil, nil)
		if err != nil {
			require.ErrorIs(t, err, statedir.ErrDamaged, msg)
			return
		}
		ignored++
		assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), msg)
		got.BDD.Close()
	}
	rng := rand.New(rand.NewPCG(3, 7))
	tried := 0
	for _, name := range names {
		if name == statedir.MarkerName || name == statedir.LockName {
			continue
		}
		path := filepath.Join(dir, name)
		b := before[name]
		var at []int
		if strings.HasSuffix(name, nodesName) {
			for off := 0; off < len(b); off += int(chunkBytes) {
				at = append(at, off, off+int(chunkBytes)-1)
			}
			var set []int
			for i, x := range b {
				if x != 0 {
					set = append(set, i)
				}
			}
			rng.Shuffle(len(set), func(i, j int) { set[i], set[j] = set[j], set[i] })
			at = append(at, set[:min(len(set), 48)]...)
			for range 16 {
				at = append(at, rng.IntN(len(b)))
			}
		} else {
			for i := range b {
				at = append(at, i)
			}
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		require.NoError(t, err)
		for _, i := range at {
			one := []byte{b[i] ^ byte(1+rng.IntN(255))}
			for sameJSON(b[i], one[0]) {
				one[0] = b[i] ^ byte(1+rng.IntN(255))
			}
			_, err := f.WriteAt(one, int64(i))
			require.NoError(t, err)
			if unused[name] && b[i] == 0 {
				refusedOrRight(fmt.Sprintf("%s byte %d of %d", name, i, len(b)))
			} else {
				refused(fmt.Sprintf("%s byte %d of %d", name, i, len(b)))
			}
			_, err = f.WriteAt(b[i:i+1], int64(i))
			require.NoError(t, err)
			tried++
		}
		require.NoError(t, f.Close())
		require.NoError(t, os.Truncate(path, int64(len(b)-1)))
		refused(name + " cut short")
		if name != "manifest.json" { // without it, the build starts over
			require.NoError(t, os.Remove(path))
			refused(name + " missing")
		}
		require.NoError(t, os.WriteFile(path, b, 0o644))
		assert.True(t, maps.EqualFunc(before, stateTree(t, dir), bytes.Equal), "%s: the refusals left the state as it was", name)
	}
	t.Logf("%d flips refused, %d of them (outside the nodes) resumed right", tried, ignored)
	resumesTo(t, c, dir, want)
}

// resumesTo resumes the build of c from the state in dir to its end: the
// file is want; the state is removed.
func resumesTo(t *testing.T, c resumeCase, dir string, want []byte) {
	t.Helper()
	st, err := openState(t, dir, false)
	require.NoError(t, err)
	got, err := c.build(t, st, nil, nil)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)))
	require.NoError(t, got.BDD.Close())
	require.NoError(t, st.Remove())
}

// sameJSON tells a flip that leaves a manifest's meaning as it was: one
// blank for another (the seal is of the compact JSON), a letter's case
// (the envelope's keys are matched without it).
func sameJSON(a, b byte) bool {
	space := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
	return space(a) && space(b) || a|0x20 == b|0x20 && a|0x20 >= 'a' && a|0x20 <= 'z'
}

// A state made from other keys (the file rewritten, or only touched), in
// another encoding or with another ZDD flag is refused as a mismatch and
// left as it was; fresh discards it and the build starts over.
func TestOutOfCoreStateMismatch(t *testing.T) {
	c := resumeCases(t)[1]
	dir := stoppedState(t, c, 3)
	before := stateTree(t, dir)
	copied := filepath.Join(t.TempDir(), "copy.keys")
	orig, err := os.Stat(c.path)
	require.NoError(t, err)
	h, keys, err := keyset.ReadAll(c.path)
	require.NoError(t, err)
	for _, change := range []struct {
		name string
		edit func(*resumeCase)
	}{
		{"the same keys, modified later", func(c *resumeCase) {
			require.NoError(t, keyset.WriteFile(copied, h, keys))
			require.NoError(t, os.Chtimes(copied, time.Now(), orig.ModTime().Add(time.Second)))
			c.path = copied
		}},
		{"other keys, modified at the same time", func(c *resumeCase) {
			require.NoError(t, keyset.WriteFile(copied, h, keys[1:]))
			require.NoError(t, os.Chtimes(copied, time.Now(), orig.ModTime()))
			c.path, c.kb.Count = copied, uint64(len(keys)-1)
		}},
		{"another encoding", func(c *resumeCase) { c.kb.Encoding = Ranks }},
		{"no ZDD", func(c *resumeCase) { c.kb.ZDD = false }},
	} {
		other := c
		change.edit(&other)
		st, err := openState(t, dir, false)
		require.NoError(t, err)
		_, err = other.build(t, st, nil, nil)
		st.Close()
		require.ErrorIs(t, err, ErrStateMismatch, change.name)
		assert.NotContains(t, err.Error(), "\n")
		assert.Contains(t, err.Error(), "--fresh")
		assert.True(t, maps.EqualFunc(before, stateTree(t, dir), bytes.Equal), change.name)
	}
	st, err := openState(t, dir, true)
	require.NoError(t, err)
	resumed := false
	got, err := c.build(t, st, nil, func(Resumed) { resumed = true })
	require.NoError(t, err)
	assert.False(t, resumed, "fresh starts over")
	require.NoError(t, got.BDD.Close())
	require.NoError(t, st.Remove())
}

// A state directory that is not one (a symlink to a directory here; the
// command's test tries the others) is refused and left as it was; a state
// in use by another holder is refused too.
func TestOutOfCoreStateForeign(t *testing.T) {
	theirs := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(theirs, "nodes"), []byte("mine\n"), 0o644))
	path := filepath.Join(t.TempDir(), "state")
	require.NoError(t, os.Symlink(theirs, path))
	for _, fresh := range []bool{false, true} {
		_, err := OpenState(path, fresh)
		require.ErrorIs(t, err, statedir.ErrForeign)
		assert.Equal(t, map[string][]byte{"nodes": []byte("mine\n")}, stateTree(t, theirs))
	}
	dir := filepath.Join(t.TempDir(), "state")
	st, err := OpenState(dir, false)
	require.NoError(t, err)
	defer st.Close()
	_, err = OpenState(dir, false)
	assert.ErrorIs(t, err, statedir.ErrBusy)
}

// Levels of more than one chunk, reduced in parts (chunks flushed in the
// middle of a level), stopped and resumed: the file of a build never
// stopped (the BDD alone: the ZDD's build resumes alike, above).
func TestOutOfCoreResumesWideLevels(t *testing.T) {
	keys := randomKeys(rand.New(rand.NewPCG(11, 12)), 4, 4, 16, 70_000)
	path := filepath.Join(t.TempDir(), "random.keys")
	require.NoError(t, keyset.WriteFile(path, keyset.Header{Rows: 4, Cols: 4, Cells: 16, Gap: 0}, keys))
	o, err := NamedOrder("natural", 4, 4, 16)
	require.NoError(t, err)
	c := resumeCase{"random 4x4", path, 4, 4, 16, KeysBuild{Order: o, Count: uint64(len(keys))}, OutOfCore{Memory: 512 << 10, Bottom: 16}}
	ref, err := c.build(t, nil, nil, nil)
	require.NoError(t, err)
	require.Greater(t, slices.Max(ref.BDD.LevelSizes()), chunkSize, "a level of several chunks")
	require.Greater(t, slices.Max(ref.BDD.Parts), 1, "levels in parts")
	want := encodedAs(t, ref.BDD, c.rows, c.cols, c.k)
	require.NoError(t, ref.BDD.Close())
	for _, stop := range []int{1, 20} { // the bottom pass, a level

		dir := stoppedState(t, c, stop)
		st, err := openState(t, dir, false)
		require.NoError(t, err)
		got, err := c.build(t, st, nil, nil)
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), "stop %d", stop)
		require.NoError(t, got.BDD.Close())
		require.NoError(t, st.Remove())
	}
}

// passCases are builds with checkpoints inside their bottom pass (every
// few keys): the density's pass on 5 and 7 cells, a 3-level pass in ranks,
// and a pass that passes a tiny budget and starts again with fewer levels.
func passCases(t *testing.T) []resumeCase {
	cases := resumeCases(t)
	out := []resumeCase{cases[0], cases[2], cases[3]}
	fb := cases[0]
	fb.name, fb.oc.Memory = fb.name+" falling back", 6<<10
	out = append(out, fb)
	for i := range out {
		out[i].oc.PassEvery = out[i].kb.Count/12 + 1
		out[i].name += " pass checkpoints"
	}
	return out
}

// A build stopped at checkpoints inside its bottom pass (the BDD's and the
// ZDD count's) and resumed, stopped again one checkpoint on and resumed to
// the end, gives the file of a build never stopped, and says where in the
// pass it continues.
func TestOutOfCoreResumesInsideBottomPass(t *testing.T) {
	for _, c := range passCases(t) {
		ref, want := c.reference(t)
		if b := bottomLevels(c.kb.Count, c.rows*c.cols, c.k, c.oc.Bottom); strings.HasSuffix(c.name, "falling back pass checkpoints") {
			require.Less(t, ref.BDD.Bottom, b, "%s: the pass fell back", c.name)
		} else {
			require.Equal(t, b, ref.BDD.Bottom, c.name)
		}
		L := 4 * c.k
		// the checkpoints of a whole build: those inside a pass say level L
		dir := filepath.Join(t.TempDir(), "state")
		st, err := openState(t, dir, false)
		require.NoError(t, err)
		var inPass []int // the checkpoints (from 1) inside a pass
		zddPass, seen := 0, 0
		got, err := c.build(t, st, func(zdd bool, next int) error {
			seen++
			if next == L {
				inPass = append(inPass, seen)
				if zdd {
					zddPass++
				}
			}
			return nil
		}, nil)
		require.NoError(t, err, c.name)
		assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), c.name)
		assert.Equal(t, ref.BDD.Bottom, got.BDD.Bottom, c.name)
		require.NoError(t, got.BDD.Close())
		require.NoError(t, st.Remove())
		require.Greater(t, len(inPass)-zddPass, 3, "%s: checkpoints inside the BDD's pass", c.name)
		require.Positive(t, zddPass, "%s: and inside the ZDD's", c.name)

		// the first ones, the last ones and some between
		var stops []int
		for i, stop := range inPass {
			if i < 3 || i >= len(inPass)-2 || i%5 == 0 {
				stops = append(stops, stop)
			}
		}
		for _, stop := range stops {
			msg := fmt.Sprintf("%s stopped at checkpoint %d", c.name, stop)
			dir := stoppedState(t, c, stop)
			var told []Resumed
			for again := 1; ; again = -1 {
				st, err := openState(t, dir, false)
				require.NoError(t, err)
				n := 0
				got, err := c.build(t, st, stopAt(again, &n), func(r Resumed) { told = append(told, r) })
				if again > 0 {
					require.ErrorIs(t, err, errStop, msg)
					st.Close()
					continue
				}
				require.NoError(t, err, msg)
				assert.True(t, bytes.Equal(want, encodedAs(t, got.BDD, c.rows, c.cols, c.k)), msg)
				assert.Equal(t, ref.ZDDNodes, got.ZDDNodes, msg)
				assert.Equal(t, ref.BDD.Count, got.BDD.Count, msg)
				assert.Equal(t, ref.BDD.Bottom, got.BDD.Bottom, msg)
				require.NoError(t, got.BDD.Close())
				require.NoError(t, st.Remove())
				break
			}
			require.Len(t, told, 2, msg)
			r := told[0]
			assert.Positive(t, r.Read, msg)
			assert.Less(t, r.Read, r.Total, msg)
			assert.Equal(t, c.kb.Count, r.Total, msg)
			assert.Equal(t, L-1-r.Bottom, r.Next, msg)
			assert.Contains(t, r.String(), fmt.Sprintf("inside the first pass (the deepest %d levels, %d-%d of %d): %d of %d keys read",
				r.Bottom, L-1, L-r.Bottom, L, r.Read, r.Total), msg)
			assert.Contains(t, r.String(), fmt.Sprintf("continuing at key %d", r.Read), msg)
			assert.Equal(t, stop > inPass[len(inPass)-zddPass-1], r.ZDD, msg)
		}
	}
}

// A state stopped inside the ZDD count's bottom pass with any byte of its
// manifest, of the pass's stream or of a node file flipped, a file cut
// short or missing, is refused and left as it was; a stream longer than
// its checkpoint (written on before the stop) is cut back and resumes.
func TestOutOfCoreStateInsidePassRefusesDamage(t *testing.T) {
	c := passCases(t)[0]
	ref, want := c.reference(t)
	L := 4 * c.k
	last := 0
	dir := filepath.Join(t.TempDir(), "state")
	st, err := openState(t, dir, false)
	require.NoError(t, err)
	seen := 0
	_, err = c.build(t, st, func(zdd bool, next int) error {
		seen++
		if zdd && next == L {
			last = seen
		}
		return nil
	}, nil)
	require.NoError(t, err)
	require.NoError(t, st.Remove())
	require.Positive(t, last)
	dir = stoppedState(t, c, last-1) // inside the ZDD's pass, a table of several levels
	b := ref.BDD.Bottom
	names := slices.Sorted(maps.Keys(stateTree(t, dir)))
	require.Equal(t, []string{"bdd/nodes", statedir.MarkerName, statedir.LockName, "manifest.json", fmt.Sprintf("zdd/level-%d", L-b), "zdd/nodes"}, names)
	refusesDamage(t, c, dir, want, map[string]bool{"zdd/nodes": true})

	// written on after the checkpoint: resumed all the same
	dir = stoppedState(t, c, last-1)
	f, err := os.OpenFile(filepath.Join(dir, "zdd", fmt.Sprintf("level-%d", L-b)), os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.Write([]byte{1, 2, 3, 4, 5})
	require.NoError(t, err)
	require.NoError(t, f.Close())
	resumesTo(t, c, dir, want)
}
