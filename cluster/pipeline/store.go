package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/gapset/gapset/gapset"
	"github.com/gapset/gapset/internal/atomicfile"
	"github.com/gapset/gapset/internal/infile"
	"github.com/gapset/gapset/internal/statedir"
)

// The work location is a local (or shared) directory, used in place, or a
// Beam filesystem URL (gs://, s3://, memfs://): then every DoFn stages its
// files through a local scratch directory, since the core works on local
// paths. Names below the work location are relative and use '/'.

// IsURL reports whether a work location is a filesystem URL, not a path.
func IsURL(work string) bool { return strings.Contains(work, "://") }

// CheckURL reports a URL whose scheme has no filesystem linked in, as one
// line (Beam's own error spans several). It does not start the backend
// (a gs:// client looks for credentials and logs).
func CheckURL(url string) (err error) {
	defer func() {
		if recover() != nil {
			scheme, _, _ := strings.Cut(url, "://")
			err = fmt.Errorf("%w: %s: no file system for the scheme %q (use a local directory, gs://, s3:// or memfs://)", gapset.ErrArgs, url, scheme)
		}
	}()
	filesystem.ValidateScheme(url) // panics: its only way to tell
	return nil
}

// workPath is a name below the work location.
func workPath(work, name string) string {
	if IsURL(work) {
		return strings.TrimSuffix(work, "/") + "/" + filepath.ToSlash(name)
	}
	return filepath.Join(work, name)
}

// openFS opens the filesystem of a work location URL.
// The gcs and s3 backends panic when they cannot set up a client (no
// credentials, no AWS configuration): that is an error here.
func openFS(ctx context.Context, work string) (fsys filesystem.Interface, err error) {
	defer func() {
		if p := recover(); p != nil {
			fsys, err = nil, fmt.Errorf("work location %s: %v", work, strings.SplitN(fmt.Sprint(p), "\n", 2)[0])
		}
	}()
	fsys, err = filesystem.New(ctx, work)
	if err != nil {
		return nil, fmt.Errorf("work location %s: %v", work, strings.SplitN(err.Error(), "\n", 2)[0])
	}
	return fsys, nil
}

// upload copies a local file to an object. On error the writer is
// abandoned (its context cancelled), never closed: Close would publish
// a truncated object on GCS and S3.
func upload(ctx context.Context, fsys filesystem.Interface, src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := fsys.OpenWrite(wctx, dst)
	if err != nil {
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	if _, err := io.Copy(w, in); err != nil {
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	if err := w.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", dst, err)
	}
	return nil
}

// download copies an object to a local file and returns its size.
func download(ctx context.Context, fsys filesystem.Interface, src, dst string) (int64, error) {
	r, err := fsys.OpenRead(ctx, src)
	if err != nil {
		return 0, fmt.Errorf("reading %s: %w", src, err)
	}
	defer r.Close()
	f, err := os.Create(dst)
	if err != nil {
		return 0, err
	}
	n, err := io.Copy(f, r)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(dst)
		return 0, fmt.Errorf("reading %s: %w", src, err)
	}
	return n, nil
}

// stage is where one DoFn call has the core read and write: the work
// directory itself when it is local, else a scratch directory that
// mirrors the names below the work location, removed by done.
type stage struct {
	work, dir string
	fsys      filesystem.Interface
}

// newStage opens the stage of one DoFn call, with the directories dirs
// made below it (those of a local work directory are the driver's).
func newStage(ctx context.Context, work, tmp string, dirs ...string) (*stage, error) {
	if !IsURL(work) {
		return &stage{work: work, dir: work}, nil
	}
	fsys, err := openFS(ctx, work)
	if err != nil {
		return nil, err
	}
	if tmp == "" {
		tmp = os.TempDir()
	}
	dir, err := os.MkdirTemp(tmp, "gapset-cluster-")
	if err != nil {
		fsys.Close()
		return nil, err
	}
	st := &stage{work: work, dir: dir, fsys: fsys}
	for _, d := range dirs {
		if err := st.mkdir(d); err != nil {
			st.done()
			return nil, err
		}
	}
	return st, nil
}

// mkdir makes a directory below the stage (the local work directory's
// are made by the driver).
func (s *stage) mkdir(name string) error {
	if s.fsys == nil {
		return nil
	}
	return os.MkdirAll(filepath.Join(s.dir, name), 0o755)
}

// fetch copies the files the references name into the stage, checking
// each one's size against its reference.
func (s *stage) fetch(ctx context.Context, refs ...Ref) error {
	if s.fsys == nil {
		return nil
	}
	for _, r := range refs {
		dst := filepath.Join(s.dir, r.Name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		n, err := download(ctx, s.fsys, workPath(s.work, r.Name), dst)
		if err != nil {
			return err
		}
		if n != r.Bytes {
			return fmt.Errorf("%s: %d bytes, its manifest says %d", workPath(s.work, r.Name), n, r.Bytes)
		}
	}
	return nil
}

// put uploads files written in the stage to the work location.
func (s *stage) put(ctx context.Context, names ...string) error {
	if s.fsys == nil {
		return nil
	}
	for _, name := range names {
		if err := upload(ctx, s.fsys, filepath.Join(s.dir, name), workPath(s.work, name)); err != nil {
			return err
		}
	}
	return nil
}

// done removes the scratch copies.
func (s *stage) done() {
	if s.fsys == nil {
		return
	}
	os.RemoveAll(s.dir)
	s.fsys.Close()
}

// writeWork writes a small file (a manifest) below the work location: on
// a disk through atomicfile (synced, renamed), on an object store as one
// object.
func writeWork(ctx context.Context, work, name string, data []byte) error {
	if !IsURL(work) {
		return atomicfile.WriteFile(workPath(work, name), data)
	}
	fsys, err := openFS(ctx, work)
	if err != nil {
		return err
	}
	defer fsys.Close()
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w, err := fsys.OpenWrite(wctx, workPath(work, name))
	if err == nil {
		if _, err = w.Write(data); err == nil {
			err = w.Close() // not on error: abandoned
		}
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", workPath(work, name), err)
	}
	return nil
}

// readWork reads a small file below the work location (at most
// statedir.MaxManifest bytes); a missing one is fs.ErrNotExist (on an
// object store: not listed).
func readWork(ctx context.Context, work, name string) ([]byte, error) {
	if !IsURL(work) {
		return statedir.ReadManifest(workPath(work, name))
	}
	fsys, err := openFS(ctx, work)
	if err != nil {
		return nil, err
	}
	defer fsys.Close()
	p := workPath(work, name)
	// The backends' errors for a missing object differ: a listing tells.
	found, err := fsys.List(ctx, p)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", p, err)
	}
	if !slices.Contains(found, p) {
		return nil, fmt.Errorf("%s: %w", p, fs.ErrNotExist)
	}
	r, err := fsys.OpenRead(ctx, p)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return infile.ReadAllFrom(r, p, "a manifest", statedir.MaxManifest)
}

// sizeWork is the size of a file below the work location.
func sizeWork(ctx context.Context, work, name string) (int64, error) {
	if !IsURL(work) {
		st, err := os.Stat(workPath(work, name))
		if err != nil {
			return 0, err
		}
		return st.Size(), nil
	}
	fsys, err := openFS(ctx, work)
	if err != nil {
		return 0, err
	}
	defer fsys.Close()
	return fsys.Size(ctx, workPath(work, name))
}

// sumWork reads a file below the work location whole and returns its size
// and CRC-32C; a local one must be a regular file (not a symlink).
func sumWork(ctx context.Context, work, name string) (int64, uint32, error) {
	if !IsURL(work) {
		return statedir.FileSum(workPath(work, name))
	}
	fsys, err := openFS(ctx, work)
	if err != nil {
		return 0, 0, err
	}
	defer fsys.Close()
	r, err := fsys.OpenRead(ctx, workPath(work, name))
	if err != nil {
		return 0, 0, err
	}
	defer r.Close()
	var sum uint32
	var size int64
	buf := make([]byte, 1<<16)
	for {
		n, err := r.Read(buf)
		sum, size = statedir.Update(sum, buf[:n]), size+int64(n)
		if err == io.EOF {
			return size, sum, nil
		}
		if err != nil {
			return 0, 0, err
		}
	}
}

// workDepth is how deep the work location's names go (d000001/tmp/x,
// out/x).
const workDepth = 3

// listWork lists the objects below a work location URL, as names relative
// to it. A glob's * stops at '/' in memfs, gcs and s3 (source), so each
// depth is listed (the names deduplicated, should a backend differ).
func listWork(ctx context.Context, fsys filesystem.Interface, work string) ([]string, error) {
	base := strings.TrimSuffix(work, "/") + "/"
	seen := map[string]bool{}
	var names []string
	glob := base + "*"
	for range workDepth {
		found, err := fsys.List(ctx, glob)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", glob, err)
		}
		for _, f := range found {
			name, ok := strings.CutPrefix(f, base)
			if ok && !seen[name] {
				seen[name] = true
				names = append(names, name)
			}
		}
		glob += "/*"
	}
	slices.Sort(names)
	return names, nil
}

// removeMatching removes the objects below a work location URL whose
// relative names drop says to.
func removeMatching(ctx context.Context, work string, drop func(name string) bool) error {
	fsys, err := openFS(ctx, work)
	if err != nil {
		return err
	}
	defer fsys.Close()
	names, err := listWork(ctx, fsys, work)
	if err != nil {
		return err
	}
	for _, name := range names {
		if drop(name) {
			if err := removeObject(ctx, fsys, work, name); err != nil {
				return err
			}
		}
	}
	return nil
}

// removeObject removes work/name from an opened work location; a name
// already gone is no error.
func removeObject(ctx context.Context, fsys filesystem.Interface, work, name string) error {
	rm, ok := fsys.(filesystem.Remover)
	if !ok {
		return fmt.Errorf("work location %s: the file system cannot remove files", work)
	}
	if err := rm.Remove(ctx, workPath(work, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing %s: %w", workPath(work, name), err)
	}
	return nil
}

// inDir reports whether a relative name lies below dir (relative too).
func inDir(name, dir string) bool { return strings.HasPrefix(name, dir+"/") }

// matchIn reports whether a relative name is dir/pattern.
func matchIn(name, dir, pattern string) bool {
	ok, _ := path.Match(dir+"/"+pattern, name)
	return ok
}

// removeWork removes one file below the work location; a missing one is
// no error.
func removeWork(ctx context.Context, work, name string) error {
	if !IsURL(work) {
		if err := os.Remove(workPath(work, name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	fsys, err := openFS(ctx, work)
	if err != nil {
		return err
	}
	defer fsys.Close()
	return removeObject(ctx, fsys, work, name)
}

// copyOut copies a key-set file from the work location to its local path
// through atomicfile (synced, renamed: the guarantees of gapset
// enumerate's outputs), checking its size against the output manifest.
func copyOut(ctx context.Context, work, name string, size int64, dst string) error {
	fsys, err := openFS(ctx, work)
	if err != nil {
		return err
	}
	defer fsys.Close()
	r, err := fsys.OpenRead(ctx, workPath(work, name))
	if err != nil {
		return fmt.Errorf("reading %s: %w", workPath(work, name), err)
	}
	defer r.Close()
	f, err := atomicfile.Create(dst)
	if err != nil {
		return err
	}
	n, err := io.Copy(f, r)
	if err == nil && n != size {
		err = fmt.Errorf("%s: %d bytes, the output manifest says %d", workPath(work, name), n, size)
	}
	if err != nil {
		f.Abort()
		return err
	}
	return f.Commit()
}

// openWorkURL is statedir.Open for a work location URL: a location holding
// nothing gets the marker first (one object); one holding objects must
// hold the marker, or it is refused (statedir.ErrForeign) untouched.
func openWorkURL(ctx context.Context, work string) error {
	fsys, err := openFS(ctx, work)
	if err != nil {
		return err
	}
	names, err := listWork(ctx, fsys, work)
	fsys.Close()
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return writeWork(ctx, work, statedir.MarkerName, statedir.Marker(workKind))
	}
	b, err := readWork(ctx, work, statedir.MarkerName)
	if how := statedir.CheckMarker(b, err, workKind); how != "" {
		return statedir.Foreign(work, how, workKind)
	}
	return nil
}
