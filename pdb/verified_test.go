package pdb

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A file checked whole is recorded by its identity; loaded again unchanged
// it is trusted (the same tables come back without a hash), and any write
// to it, even of the same bytes with its old modification time put back,
// makes the next load hash it again.
func TestVerifiedRecord(t *testing.T) {
	part, err := ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, BuildFiles(context.Background(), part, dir, 1, true, nil, nil))
	rec := filepath.Join(t.TempDir(), "cache", "pdb-verified")

	v := OpenVerified(rec)
	first, err := LoadVerified(dir, part, v)
	require.NoError(t, err)
	require.Empty(t, first.Sampled, "3x3 groups have known digests: checked whole")
	require.NoError(t, v.Save())

	v = OpenVerified(rec)
	p, g := part.Paths(dir)[0], part.Groups[0]
	fi, err := os.Stat(p)
	require.NoError(t, err)
	digest, known := knownDigest(3, 3, g, true, false)
	require.True(t, known)
	assert.True(t, v.has(p, fi, digest), "recorded after a load that hashed it")
	assert.False(t, v.has(p, fi, digest[:63]+"0"), "recorded for its digest only")
	again, err := LoadVerified(dir, part, v)
	require.NoError(t, err)
	assert.Equal(t, first.Nibbles, again.Nibbles)
	assert.Empty(t, again.Sampled)

	raw, err := os.ReadFile(p)
	require.NoError(t, err)
	time.Sleep(10 * time.Millisecond) // a coarse clock must still see a new status-change time
	require.NoError(t, os.WriteFile(p, raw, 0o644))
	require.NoError(t, os.Chtimes(p, fi.ModTime(), fi.ModTime()))
	fi2, err := os.Stat(p)
	require.NoError(t, err)
	assert.False(t, v.has(p, fi2, digest), "written since: hashed again")

	// A damaged record is ignored line by line, never trusted.
	require.NoError(t, os.WriteFile(rec, []byte("garbage\nx y z\n"), 0o644))
	assert.Empty(t, OpenVerified(rec).known)
	// A record that cannot be written is only a missed shortcut.
	var none *Verified
	assert.NoError(t, none.Save())
}

// A trusted file (found equal to its digest before, identity unchanged)
// skips the hash and the samples but not the checksum: a byte changed
// behind an unchanged identity, as a failing disk would, is still refused.
func TestTrustedStillChecksummed(t *testing.T) {
	part, _, raw := builtFile(t)
	g := part.Groups[0]
	trust := func(string) bool { return true }
	_, err := decode(bytes.NewReader(raw), "f", 3, 3, g, nil, trust, false)
	require.NoError(t, err)
	bad := bytes.Clone(raw)
	bad[len(bad)-3] ^= 0x10
	_, err = decode(bytes.NewReader(bad), "f", 3, 3, g, nil, trust, false)
	require.ErrorIs(t, err, ErrCorrupt)
	assert.ErrorContains(t, err, "checksum mismatch")
}

// Loaded beside the search, a trusted mapped file's checksum is left
// running; its outcome is the one the waiting load gives: nil for the
// genuine bytes, the checksum mismatch for a changed byte.
func TestTrustedChecksumBeside(t *testing.T) {
	part, dir, raw := builtFile(t)
	g := part.Groups[0]
	trust := func(string) bool { return true }
	for _, damage := range []bool{false, true} {
		b := bytes.Clone(raw)
		if damage {
			b[len(b)-3] ^= 0x10
		}
		mapped := func(size int64) ([]byte, func()) { return b[headerSize:], nil }
		st, err := decode(bytes.NewReader(b), "f", 3, 3, g, mapped, trust, true)
		require.NoError(t, err, "nothing checked yet but the header")
		require.NotNil(t, st.later)
		if damage {
			assert.ErrorContains(t, st.later.Wait(), "checksum mismatch")
		} else {
			assert.NoError(t, st.later.Wait())
		}
		// Not trusted, or read rather than mapped: checked at once.
		st, err = decode(bytes.NewReader(b), "f", 3, 3, g, mapped, nil, true)
		assert.Nil(t, st.later)
		assert.Equal(t, damage, err != nil)
		st, err = decode(bytes.NewReader(b), "f", 3, 3, g, nil, trust, true)
		assert.Nil(t, st.later)
		assert.Equal(t, damage, err != nil)
	}
	// A set too small to be mapped has no check left.
	s, checks, err := LoadBeside(dir, part, nil)
	require.NoError(t, err)
	assert.Empty(t, checks)
	want, err := Load(dir, part)
	require.NoError(t, err)
	assert.Equal(t, want.Nibbles, s.Nibbles)
}

// builtFile builds the 3x3 4-4 partition's compact files and returns its
// first group's file as written.
func builtFile(t *testing.T) (Partition, string, []byte) {
	t.Helper()
	part, err := ParsePartition("4-4", 3, 3)
	require.NoError(t, err)
	dir := t.TempDir()
	require.NoError(t, BuildFiles(context.Background(), part, dir, 1, true, nil, nil))
	raw, err := os.ReadFile(part.Paths(dir)[0])
	require.NoError(t, err)
	return part, dir, raw
}

// The user's record is in the user's cache directory, or nowhere.
func TestUserRecord(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/x/cache")
	assert.Equal(t, filepath.Join("/x/cache", "gapset", "pdb-verified"), UserRecord())
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	assert.Empty(t, UserRecord(), "no cache directory: no record")
}
