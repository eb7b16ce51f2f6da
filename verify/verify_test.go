package verify

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gapset/gapset/bdd"
	"github.com/gapset/gapset/encode"
	"github.com/gapset/gapset/gapdb"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/keyset"
	"github.com/gapset/gapset/pdb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A database passes when it is the table built again under its own name;
// under another group's name, or with a raised entry whose checksum was
// recomputed, it fails with ErrFailed.
func TestFileDatabase(t *testing.T) {
	part, err := pdb.ParsePartition("3-5", 3, 3)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, pdb.BuildFiles(context.Background(), part, dir, 1, false, nil, nil))
	paths := part.Paths(dir)
	msg, err := File(context.Background(), paths[0], 1)
	require.NoError(t, err)
	assert.Contains(t, msg, "equal to the table built again")

	b, err := os.ReadFile(paths[0])
	require.NoError(t, err)
	other := filepath.Join(t.TempDir(), filepath.Base(paths[1]))
	require.NoError(t, os.WriteFile(other, b, 0o644))
	_, err = File(context.Background(), other, 1)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "holds group [1 2 3]")

	table, step, err := pdb.Build(context.Background(), 3, 3, part.Groups[0], 1, nil)
	require.NoError(t, err)
	table[100] += 2
	require.NoError(t, pdb.Write(paths[0], 3, 3, part.Groups[0], table, step))
	_, err = File(context.Background(), paths[0], 1)
	assert.ErrorIs(t, err, ErrFailed)
}

// A blank-aware database passes when it is the table built again; a
// normal database's file renamed to its name, or an entry changed with the
// checksum recomputed, fails.
func TestFileBlankDatabase(t *testing.T) {
	part, err := pdb.ParsePartition("3-5", 3, 3)
	require.NoError(t, err)
	part.Blank = true
	dir := t.TempDir()
	require.NoError(t, pdb.BuildFiles(context.Background(), part, dir, 1, false, nil, nil))
	paths := part.Paths(dir)
	assert.Equal(t, "3x3-1-2-3-blank.pdb", filepath.Base(paths[0]))
	msg, err := File(context.Background(), paths[0], 1)
	require.NoError(t, err)
	assert.Contains(t, msg, "blank-aware pattern database of group [1 2 3] on 3x3, 3024 entries: equal to the table built again")

	plain := part
	plain.Blank = false
	require.NoError(t, pdb.BuildFiles(context.Background(), plain, dir, 1, true, nil, nil))
	b, err := os.ReadFile(plain.Paths(dir)[0])
	require.NoError(t, err)
	renamed := filepath.Join(t.TempDir(), filepath.Base(paths[0]))
	require.NoError(t, os.WriteFile(renamed, b, 0o644))
	_, err = File(context.Background(), renamed, 1)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "want 3 (a blank-aware database)")

	nib, err := pdb.BuildBlank(context.Background(), 3, 3, part.Groups[0], 1, nil)
	require.NoError(t, err)
	nib[700] ^= 0x10
	require.NoError(t, pdb.WriteBlank(context.Background(), paths[0], 3, 3, part.Groups[0], nib))
	_, err = File(context.Background(), paths[0], 1)
	assert.ErrorIs(t, err, ErrFailed)
}

func TestFileUnknownKind(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x")
	require.NoError(t, os.WriteFile(p, []byte("not a gapset file"), 0o644))
	_, err := File(context.Background(), p, 1)
	assert.ErrorIs(t, err, ErrFailed)
}

// A key set of a cell set is compared with the whole set gathered onto its
// cells: the enumerator's file passes, the same keys under another cell
// set's header fail.
func TestFileCellSet(t *testing.T) {
	dir := t.TempDir()
	rows02 := encode.CellSetOf([]int{0, 1, 2, 6, 7, 8})
	_, err := gapset.Enumerate(context.Background(), gapset.Config{Rows: 3, Cols: 3, MaxGap: 2, Sets: []encode.CellSet{rows02}, Dir: dir})
	require.NoError(t, err)
	path := filepath.Join(dir, "Gap2_6c01C7.keys")
	msg, err := File(context.Background(), path, 1)
	require.NoError(t, err)
	assert.Contains(t, msg, "equal to the set enumerated again")

	h, keys, err := keyset.ReadAllAny(path)
	require.NoError(t, err)
	h.CellSet = encode.CellSetOf([]int{0, 1, 2, 3, 4, 5}) // rows 0 and 1
	other := filepath.Join(t.TempDir(), h.Name()+".keys")
	require.NoError(t, keyset.WriteFile(other, h, keys))
	_, err = File(context.Background(), other, 1)
	assert.ErrorIs(t, err, ErrFailed)
}

// BDDKeys finds the diagram built from a key file equal to it, in both
// encodings that keep the keys' order; it names the first difference of a
// diagram built from other keys of the same count, and refuses another
// board or count (ErrFailed), another order, the tiles and ranks-reverse
// encodings and a ZDD (ErrUnsupported: a correct file is not blamed), and
// a damaged key file as damaged, not as a difference of the diagram.
func TestBDDKeys(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, err := gapset.Enumerate(ctx, gapset.Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{6, 9}, Dir: dir})
	require.NoError(t, err)
	keysPath := filepath.Join(dir, "Gap2_6.keys")
	h, keys, err := keyset.ReadAll(keysPath)
	require.NoError(t, err)
	require.Greater(t, len(keys), 100)
	natural, err := bdd.NamedOrder("natural", 3, 3, 6)
	require.NoError(t, err)
	save := func(name string, keys []uint64, o bdd.Order, enc bdd.Encoding) string {
		b, err := bdd.BuildKeys(slices.Clone(keys), 9, 6, bdd.KeysBuild{Order: o, Encoding: enc})
		require.NoError(t, err)
		path := filepath.Join(dir, name)
		_, err = b.Save(path, h, enc)
		require.NoError(t, err)
		return path
	}
	for _, enc := range []bdd.Encoding{bdd.Cells, bdd.Ranks} {
		msg, err := BDDKeys(ctx, save("same.bdd", keys, natural, enc), keysPath, nil)
		require.NoError(t, err, "%s", enc)
		assert.Contains(t, msg, fmt.Sprintf("%d members: the same set as", len(keys)))
	}
	// one key replaced by a pattern not in the set: the count agrees, the walk finds it
	all := map[uint64]bool{}
	for _, k := range keys {
		all[k] = true
	}
	other := slices.Clone(keys)
	rng := rand.New(rand.NewPCG(5, 6))
	for i := 0; other[len(other)/2] == keys[len(keys)/2]; i++ { // a 6-cell pattern outside
		require.Less(t, i, 100000, "no pattern outside the set")
		if k := encode.Project(encode.Random(rng, 3, 3).Key(), 6); !all[k] {
			other[len(other)/2] = k
		}
	}
	slices.Sort(other)
	_, err = BDDKeys(ctx, save("other.bdd", other, natural, bdd.Ranks), keysPath, nil)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "at member")
	// fewer members; another order; a ZDD; a damaged key file
	_, err = BDDKeys(ctx, save("fewer.bdd", keys[1:], natural, bdd.Cells), keysPath, nil)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "members")
	reverse, err := bdd.NamedOrder("reverse", 3, 3, 6)
	require.NoError(t, err)
	_, err = BDDKeys(ctx, save("reverse.bdd", keys, reverse, bdd.Cells), keysPath, nil)
	assert.ErrorIs(t, err, ErrUnsupported)
	assert.NotErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "natural order")
	// encodings whose keys are not in the cells keys' order: the same set,
	// refused rather than named different
	_, err = BDDKeys(ctx, save("rr.bdd", keys, natural, bdd.RanksReverse), keysPath, nil)
	assert.ErrorIs(t, err, ErrUnsupported)
	assert.NotErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "ranks-reverse")
	wholePath := filepath.Join(dir, "Gap2.keys")
	hw, whole, err := keyset.ReadAll(wholePath)
	require.NoError(t, err)
	natural9, err := bdd.NamedOrder("natural", 3, 3, 9)
	require.NoError(t, err)
	b, err := bdd.BuildKeys(slices.Clone(whole), 9, 9, bdd.KeysBuild{Order: natural9, Encoding: bdd.Tiles})
	require.NoError(t, err)
	tiles := filepath.Join(dir, "tiles.bdd")
	_, err = b.Save(tiles, hw, bdd.Tiles)
	require.NoError(t, err)
	_, err = BDDKeys(ctx, tiles, wholePath, nil)
	assert.ErrorIs(t, err, ErrUnsupported)
	assert.ErrorContains(t, err, "tiles")
	b, err = bdd.BuildKeys(slices.Clone(whole), 9, 9, bdd.KeysBuild{Order: natural9, Encoding: bdd.Ranks})
	require.NoError(t, err)
	wholeBDD := filepath.Join(dir, "whole.bdd")
	_, err = b.Save(wholeBDD, hw, bdd.Ranks)
	require.NoError(t, err)
	msg, err := BDDKeys(ctx, wholeBDD, wholePath, nil)
	require.NoError(t, err, "whole boards, ranks: the Lehmer code keeps the order")
	assert.Contains(t, msg, fmt.Sprintf("%d members", len(whole)))
	z, err := b.BDD.Diagram().ZDDOf()
	require.NoError(t, err)
	var zbuf bytes.Buffer
	_, err = bdd.Encode(&zbuf, z, bdd.SetMeta(hw, bdd.Ranks))
	require.NoError(t, err)
	zpath := filepath.Join(dir, "whole.zdd.bdd")
	require.NoError(t, os.WriteFile(zpath, zbuf.Bytes(), 0o644))
	_, err = BDDKeys(ctx, zpath, wholePath, nil)
	assert.ErrorIs(t, err, ErrUnsupported)
	assert.ErrorContains(t, err, "ZDD")
	// another board: a 2x3 set on 6 cells
	dir23 := t.TempDir()
	_, err = gapset.Enumerate(ctx, gapset.Config{Rows: 2, Cols: 3, MaxGap: 2, Cells: []int{6}, Dir: dir23})
	require.NoError(t, err)
	_, err = BDDKeys(ctx, filepath.Join(dir, "same.bdd"), filepath.Join(dir23, "Gap2.keys"), nil)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "2x3")
	// a damaged key file is named damaged: a key out of place (read before
	// the end) and, keys valid and in order, a checksum that fails (read
	// after the difference it makes)
	data, err := os.ReadFile(keysPath)
	require.NoError(t, err)
	data[len(data)/2] ^= 0x40
	bad := filepath.Join(dir, "bad.keys")
	require.NoError(t, os.WriteFile(bad, data, 0o644))
	_, err = BDDKeys(ctx, filepath.Join(dir, "same.bdd"), bad, nil)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorIs(t, err, keyset.ErrFormat)
	assert.NotContains(t, err.Error(), "ends after")
	otherKeys := filepath.Join(dir, "other.keys")
	require.NoError(t, keyset.WriteFile(otherKeys, h, other))
	data, err = os.ReadFile(otherKeys)
	require.NoError(t, err)
	_, err = BDDKeys(ctx, filepath.Join(dir, "same.bdd"), otherKeys, nil)
	assert.ErrorContains(t, err, "at member", "a sound key file of other keys: the difference")
	data[len(data)-1] ^= 1
	require.NoError(t, os.WriteFile(otherKeys, data, 0o644))
	_, err = BDDKeys(ctx, filepath.Join(dir, "same.bdd"), otherKeys, nil)
	assert.ErrorIs(t, err, keyset.ErrFormat)
	assert.ErrorContains(t, err, "checksum")
	_, err = BDDKeys(ctx, filepath.Join(dir, "missing.bdd"), keysPath, nil)
	assert.ErrorIs(t, err, os.ErrNotExist)
}

// A BDD of a set too big to enumerate, with its ZDD count stored: with
// memory for the diagram every check runs, the ZDD count too; without it,
// every check but that count, and the line says so; with too little even
// for the one-pass check, ErrTooBig, not a failure of the file.
func TestVerifyBDDWithin(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(7, 8))
	seen := map[uint64]bool{}
	var keys []uint64
	for len(keys) < 3000 {
		if k := encode.Project(encode.Random(rng, 4, 4).Key(), 4); !seen[k] {
			seen[k] = true
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	o, err := bdd.NamedOrder("natural", 4, 4, 4)
	require.NoError(t, err)
	b, err := bdd.BuildKeys(slices.Clone(keys), 16, 4, bdd.KeysBuild{Order: o, Encoding: bdd.Ranks, ZDD: true})
	require.NoError(t, err)
	require.NotZero(t, b.ZDDNodes)
	path := filepath.Join(t.TempDir(), "Gap2_4.bdd")
	in, err := b.Save(path, keyset.Header{Rows: 4, Cols: 4, Cells: 4, Gap: 2, Count: uint64(len(keys))}, bdd.Ranks)
	require.NoError(t, err)

	msg, err := verifyBDDWithin(ctx, path, 0)
	require.NoError(t, err)
	assert.Contains(t, msg, "not enumerated again")
	assert.NotContains(t, msg, "ZDD count not checked")
	lean := 12 * (in.Nodes + 2) // what a load holds at the least
	msg, err = verifyBDDWithin(ctx, path, lean-1)
	require.NoError(t, err)
	assert.Contains(t, msg, "the ZDD count not checked")
	_, err = verifyBDDWithin(ctx, path, 1)
	assert.ErrorIs(t, err, bdd.ErrTooBig)
	assert.NotErrorIs(t, err, ErrFailed)

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	data[len(data)-10] ^= 1
	require.NoError(t, os.WriteFile(path, data, 0o644))
	_, err = verifyBDDWithin(ctx, path, lean-1)
	assert.ErrorIs(t, err, ErrFailed, "damage is damage on either path")
}

// The mapped form is compared with the keys by walking it where it lies,
// and found different when it holds another set; File checks it whole
// and counts its members.
func TestMappedAgainstKeys(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	_, err := gapset.Enumerate(ctx, gapset.Config{Rows: 3, Cols: 3, MaxGap: 2, Cells: []int{6}, Dir: dir})
	require.NoError(t, err)
	keysPath := filepath.Join(dir, "Gap2_6.keys")
	h, keys, err := keyset.ReadAll(keysPath)
	require.NoError(t, err)
	natural, err := bdd.NamedOrder("natural", 3, 3, 6)
	require.NoError(t, err)
	mapped := func(name string, keys []uint64) string {
		b, err := bdd.BuildKeys(slices.Clone(keys), 9, 6, bdd.KeysBuild{Order: natural, Encoding: bdd.Ranks})
		require.NoError(t, err)
		hh := h
		hh.Count = uint64(len(keys))
		in, err := b.Save(filepath.Join(dir, name+".bdd"), hh, bdd.Ranks)
		require.NoError(t, err)
		path := filepath.Join(dir, name+".bddmap")
		require.NoError(t, bdd.WriteMapped(path, b.BDD, in))
		return path
	}
	same := mapped("same", keys)
	assert.True(t, strings.HasPrefix(BDDKeysStarting(same), "checking the mapped "+same), "a mapped form is checked, not loaded")
	assert.True(t, strings.HasPrefix(BDDKeysStarting(filepath.Join(dir, "same.bdd")), "loading "), "a .bdd file is loaded")
	msg, err := BDDKeys(ctx, same, keysPath, nil)
	require.NoError(t, err)
	assert.Contains(t, msg, fmt.Sprintf("%d members: the same set as", len(keys)))
	msg, err = File(ctx, same, 1)
	require.NoError(t, err)
	assert.Contains(t, msg, fmt.Sprintf("%d members: checksums, structure and count ok", len(keys)))
	// the last key replaced by one past it: same count, another set
	other := slices.Clone(keys)
	other[len(other)-1] = encode.Project(^uint64(0), 6)
	require.False(t, slices.Contains(keys, other[len(other)-1]))
	_, err = BDDKeys(ctx, mapped("other", other), keysPath, nil)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "at member")
	// a flipped byte: refused as a bad file by both
	data, err := os.ReadFile(same)
	require.NoError(t, err)
	data[len(data)-1] ^= 1
	bad := filepath.Join(dir, "bad.bddmap")
	require.NoError(t, os.WriteFile(bad, data, 0o644))
	_, err = File(ctx, bad, 1)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorIs(t, err, bdd.ErrMapped)
	_, err = BDDKeys(ctx, bad, keysPath, nil)
	assert.ErrorIs(t, err, ErrFailed)
}

// A database whose header records what its level files do not build is
// refused though its table is theirs byte for byte: a database of both
// levels whose base record names another base's tables (its CRC made
// again) passed verify, and solve with that base's tables then printed
// lengths two moves too long (the residual levels of one base added to
// another). The header as built passes.
func TestFileGapDBHeaderAgainstLevelFiles(t *testing.T) {
	sets, err := gapset.LevelSets(context.Background(), 3, 3, 2, []int{6}, nil)
	require.NoError(t, err)
	base := keyset.Base{Spec: "pdbbr:4-4", Digest: [32]byte{4, 4}}
	dir := t.TempDir()
	var files []string
	for _, b := range []keyset.Base{{}, base} {
		for i, keys := range sets[6] {
			h := keyset.Header{Rows: 3, Cols: 3, Cells: 6, Gap: 2 * i, Base: b}
			p := filepath.Join(dir, h.Name()+".keys")
			require.NoError(t, keyset.WriteFile(p, h, keys))
			files = append(files, p)
		}
	}
	bld, err := gapdb.FromKeyFiles(context.Background(), files, 2, nil)
	require.NoError(t, err)
	path := filepath.Join(dir, "both.gapdb")
	require.NoError(t, bld.Write(context.Background(), path))
	msg, err := File(context.Background(), path, 1)
	require.NoError(t, err)
	assert.Contains(t, msg, "equal to the table its level files build")

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	hl, err := gapdb.HeaderLen(raw)
	require.NoError(t, err)
	at := bytes.Index(raw[:hl], []byte(base.Spec))
	require.Positive(t, at)
	forged := slices.Clone(raw)
	copy(forged[at-32:], []byte{3, 5})
	copy(forged[at:], "pdbbr:3-5")
	binary.LittleEndian.PutUint32(forged[hl-4:], crc32.Checksum(forged[:hl-4], crc32.MakeTable(crc32.Castagnoli)))
	require.NoError(t, os.WriteFile(path, forged, 0o644))
	d, err := gapdb.Open(path) // a load cannot tell
	require.NoError(t, err)
	assert.Equal(t, "pdbbr:3-5", d.Base.Spec)
	d.Close()
	_, err = File(context.Background(), path, 1)
	assert.ErrorIs(t, err, ErrFailed)
	assert.ErrorContains(t, err, "pdbbr:4-4")
}
