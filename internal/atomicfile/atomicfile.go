// Package atomicfile is the one place where gapset writes a file that
// others read: the bytes go to a temporary beside the target, are synced,
// and the temporary is renamed over the target, so a reader sees the old
// file or the whole new one, never half of one.
//
// It also owns temporaries. Every temporary is a scratch directory named
// ".NAME.tmp-PID-RANDOM" beside its target (a file being written lies
// inside one), PID being the writer's process, so that an interrupt handler
// finds this process's own (Glob, DirGlob); and it holds a marker naming
// its writer beyond doubt (boot, PID namespace, PID, start time: owner.go),
// so that a later run removes the leftovers of a writer that is provably
// gone (a kill -9, a crash) and nothing else (RemoveStale): not a file or
// directory that merely has such a name, not the temporaries of a process
// it cannot see (another PID namespace, another machine sharing the
// directory, an earlier boot).
//
// A target must be absent or a regular file: a device, FIFO, socket,
// symlink or directory at the output path is refused (Check), before any
// work by the commands and again at the rename, so that no special file is
// ever replaced by a regular one.
package atomicfile

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gapset/gapset/internal/infile"
)

// ErrNotRegular is what a *NotRegularError is (errors.Is).
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError is Check's error for a path that exists and is not a
// regular file.
type NotRegularError struct {
	Path string
	Kind string // "a FIFO", "a symbolic link", ...
}

func (e *NotRegularError) Error() string {
	return e.Path + " is " + e.Kind + ", not a regular file; refusing to replace it"
}

// Is makes errors.Is(err, ErrNotRegular) hold.
func (e *NotRegularError) Is(target error) bool { return target == ErrNotRegular }

// Check returns nil when path does not exist or is a regular file. A
// symlink is refused whatever it points to: renaming over it would replace
// the link and leave its target untouched.
func Check(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.Mode().IsRegular() {
		return nil
	}
	return &NotRegularError{Path: path, Kind: infile.Kind(st.Mode())}
}

// tmpInfix separates the target's name from the writer's PID.
const tmpInfix = ".tmp-"

// pattern is the name os.MkdirTemp gets for a temporary of name in this
// process (it replaces the star by random digits).
func pattern(name string) string {
	return "." + name + tmpInfix + strconv.Itoa(os.Getpid()) + "-*"
}

// Glob matches this process's temporaries of the file at path.
func Glob(path string) string {
	return filepath.Join(filepath.Dir(path), pattern(filepath.Base(path)))
}

// DirGlob matches this process's scratch directories called name in dir.
func DirGlob(dir, name string) string { return filepath.Join(dir, pattern(name)) }

// MkdirTemp makes a scratch directory called name in dir (mode 0700),
// named for this process and holding the marker that proves it this
// process's to RemoveStale (owner.go). Its users must leave the marker's
// name (.gapset-writer) alone.
func MkdirTemp(dir, name string) (string, error) {
	tmp, err := os.MkdirTemp(dir, pattern(name))
	if err != nil {
		return "", err
	}
	if err := writeMarker(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	return tmp, nil
}

// Retire removes the directory at path so that a stop at any moment leaves
// either all of it or none of it under its name: it is moved in one rename
// into a scratch directory beside it (which RemoveStale clears should this
// process stop before it is gone), the rename synced, then removed.
func Retire(path string) error {
	dir := filepath.Dir(path)
	tmp, err := MkdirTemp(dir, filepath.Base(path))
	if err != nil {
		return err
	}
	if err := os.Rename(path, filepath.Join(tmp, filepath.Base(path))); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	syncDir(dir)
	return os.RemoveAll(tmp)
}

// Rename renames old to new in the same directory and syncs the directory,
// so the rename survives a stop of the machine; new must be absent or a
// regular file (Check). It is how a file written and synced elsewhere
// (a job's manifest) takes its final name.
func Rename(old, new string) error {
	if err := Check(new); err != nil {
		return err
	}
	if err := os.Rename(old, new); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(new))
}

// MakeDir makes the directory dir whole: a directory (mode 0755) inside a
// scratch directory beside it is filled by fill, then takes dir's name, so
// that dir never exists half-made. dir must be absent; whatever takes the
// name meanwhile is not replaced (the rename fails).
func MakeDir(dir string, fill func(tmp string) error) error {
	scratch, err := MkdirTemp(filepath.Dir(dir), filepath.Base(dir))
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch) // its marker, once the directory is out
	tmp := filepath.Join(scratch, filepath.Base(dir))
	err = os.Mkdir(tmp, 0o755)
	if err == nil {
		err = os.Chmod(tmp, 0o755) // whatever the umask
	}
	if err == nil {
		err = fill(tmp)
	}
	if err == nil {
		if _, serr := os.Lstat(dir); !errors.Is(serr, fs.ErrNotExist) {
			err = errors.New(dir + " appeared while it was being made")
		}
	}
	if err == nil {
		// Rename replaces an empty directory only: a file or a full
		// directory that took the name makes it fail.
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		return err
	}
	syncDir(filepath.Dir(dir))
	return nil
}

// Sync flushes a file's or directory's data and metadata to the disk (the
// runs a manifest names, before the manifest).
func Sync(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// SyncDir is Sync for a directory whose new entries must reach the disk.
func SyncDir(dir string) error { return Sync(dir) }

// syncDir is SyncDir at best effort: not every file system lets a
// directory be synced.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// File is an output being written: an *os.File on the temporary, put in
// place by Commit or thrown away by Abort.
type File struct {
	*os.File
	target  string
	scratch string // the scratch directory that holds the temporary
	closed  bool
}

// Create checks the target (Check) and opens a temporary for it, readable
// by all (0644: what gapset writes is data to share), in a scratch
// directory beside it (MkdirTemp: on the target's file system, and proven
// this process's by its marker).
func Create(path string) (*File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	scratch, err := MkdirTemp(filepath.Dir(path), filepath.Base(path))
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(scratch, filepath.Base(path)), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err == nil {
		if err = f.Chmod(0o644); err != nil { // whatever the umask
			f.Close()
		}
	}
	if err != nil {
		os.RemoveAll(scratch)
		return nil, err
	}
	return &File{File: f, target: path, scratch: scratch}, nil
}

// Target is the path Commit renames the temporary to.
func (f *File) Target() string { return f.target }

// Commit syncs and closes the temporary and renames it over the target,
// which must still be absent or a regular file. On any error the temporary
// is removed and the target left as it was.
func (f *File) Commit() error { return f.CommitContext(context.Background()) }

// CommitContext is Commit unless ctx is done by the rename: then the
// temporary is removed and ctx's error returned. Under an Interruptible
// context the check and the rename are one step against its stop.
func (f *File) CommitContext(ctx context.Context) error { return CommitAll(ctx, f) }

// CommitAll commits files together: each is synced and closed, then, unless
// ctx is done, all are renamed in one step against an Interruptible stop,
// so that an interrupt finds every one of them in place or none. On an
// error the temporaries not renamed are removed (a rename that fails
// midway leaves the ones before it in place).
func CommitAll(ctx context.Context, files ...*File) error {
	var err error
	for _, f := range files {
		if f.closed {
			err = cmp.Or(err, errors.New("atomicfile: commit after close"))
			continue
		}
		f.closed = true
		serr := f.Sync()
		if cerr := f.File.Close(); serr == nil {
			serr = cerr
		}
		err = cmp.Or(err, serr)
	}
	renamed := 0
	if err == nil {
		err = commitUnder(ctx, func() error {
			for _, f := range files {
				if err := Check(f.target); err != nil {
					return err
				}
			}
			for _, f := range files {
				if err := os.Rename(f.Name(), f.target); err != nil {
					return err
				}
				renamed++
			}
			return nil
		})
	}
	// The renames reach the disk with their directories.
	synced := map[string]bool{}
	for _, f := range files[:renamed] {
		if dir := filepath.Dir(f.target); !synced[dir] {
			synced[dir] = true
			syncDir(dir)
		}
	}
	if err != nil {
		for _, f := range files[renamed:] {
			os.RemoveAll(f.scratch)
		}
	}
	// The scratch directories of the files in place held only their markers.
	for _, f := range files[:renamed] {
		os.RemoveAll(f.scratch)
	}
	return err
}

// Abort closes and removes the temporary; the target is untouched. It is a
// no-op after Commit, so it may be deferred.
func (f *File) Abort() {
	if f.closed {
		return
	}
	f.closed = true
	f.File.Close()
	os.RemoveAll(f.scratch)
}

// WriteFile writes data to path atomically.
func WriteFile(path string, data []byte) error {
	return WriteFileContext(context.Background(), path, data)
}

// WriteFileContext is WriteFile committed with CommitContext.
func WriteFileContext(ctx context.Context, path string, data []byte) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return err
	}
	return f.CommitContext(ctx)
}
