package pdb

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
	"github.com/gapset/gapset/internal/sysprobe"
)

// Verified remembers the database files whose complete check (the SHA-256
// of the whole file against the build's digest) passed, by their identity
// on the file system (sysprobe.FileIdentity: device, inode, size,
// modification and status-change times). A file loaded again with the same
// identity holds the bytes that were hashed, so its load skips the hash
// and keeps every other check; a file written, replaced or touched since
// is hashed again. The record is one small text file, usually in the
// user's cache directory; it is only ever a shortcut, so a record that
// cannot be read or written is ignored, and a damaged line is dropped.
// Safe for concurrent use.
type Verified struct {
	path  string
	mu    sync.Mutex
	known map[string]string // absolute file path -> "identity digest"
	dirty bool
}

// verifiedMax bounds the files remembered, and verifiedBytes the record
// they take (a line is an identity, a digest and a path of at most 4 KiB).
const (
	verifiedMax   = 256
	verifiedBytes = verifiedMax * 5 << 10
)

// UserRecord is where the user's record lives: gapset/pdb-verified in
// the user's cache directory (XDG_CACHE_HOME, else ~/.cache), or "" when
// there is none.
func UserRecord() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "gapset", "pdb-verified")
}

// OpenVerified reads the record at path (missing: empty).
func OpenVerified(path string) *Verified {
	v := &Verified{path: path, known: map[string]string{}}
	b, err := infile.ReadAll(path, "a record of checked databases", verifiedBytes)
	if err != nil {
		return v
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		// "identity digest path": the path last, since it may hold spaces
		f := strings.SplitN(sc.Text(), " ", 3)
		if len(f) == 3 && len(f[1]) == 64 && filepath.IsAbs(f[2]) {
			v.known[f[2]] = f[0] + " " + f[1]
		}
	}
	return v
}

// entry is what the record keeps for a file: its identity and the digest
// it was checked against; ok is false when the file has no identity here.
func entry(path string, fi os.FileInfo, digest string) (abs, val string, ok bool) {
	id, ok := sysprobe.FileIdentity(fi)
	if !ok || !fi.Mode().IsRegular() {
		return "", "", false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", "", false
	}
	return abs, id + " " + digest, true
}

// has tells whether the file, as fi describes it now, passed the check
// against digest.
func (v *Verified) has(path string, fi os.FileInfo, digest string) bool {
	if v == nil {
		return false
	}
	abs, val, ok := entry(path, fi, digest)
	if !ok {
		return false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.known[abs] == val
}

// add records that the file, as fi described it before it was read,
// passed the check against digest.
func (v *Verified) add(path string, fi os.FileInfo, digest string) {
	if v == nil {
		return
	}
	abs, val, ok := entry(path, fi, digest)
	if !ok {
		return
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.known[abs] != val {
		v.known[abs], v.dirty = val, true
	}
}

// Save writes the record if it changed (best effort: a cache directory
// that cannot be written only means the next load hashes again).
func (v *Verified) Save() error {
	if v == nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	if !v.dirty {
		return nil
	}
	paths := make([]string, 0, len(v.known))
	for p := range v.known {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	if len(paths) > verifiedMax {
		paths = paths[len(paths)-verifiedMax:]
	}
	var b bytes.Buffer
	for _, p := range paths {
		fmt.Fprintf(&b, "%s %s\n", v.known[p], p)
	}
	if err := os.MkdirAll(filepath.Dir(v.path), 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(v.path, b.Bytes()); err != nil {
		return err
	}
	v.dirty = false
	return nil
}
