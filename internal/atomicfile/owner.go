package atomicfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/gapset/gapset/internal/infile"
	"github.com/gapset/gapset/internal/sysprobe"
)

// markerName is the file in every temporary (MkdirTemp) that names its
// writer.
const markerName = ".gapset-writer"

// markerHead is the marker's first line, for a person who finds one.
const markerHead = "gapset temporary: removed by gapset when its writer, named below, is gone"

// writer is what a marker says: the writer's identity (ok false where the
// system gave none: nothing then proves the writer gone).
type writer struct {
	id sysprobe.Identity
	ok bool
}

func (w writer) String() string {
	if !w.ok {
		return fmt.Sprintf("%s\npid %d\n", markerHead, w.id.PID)
	}
	return fmt.Sprintf("%s\nboot %s\npidns %s\npid %d\nstart %d\n", markerHead, w.id.Boot, w.id.PIDNS, w.id.PID, w.id.Start)
}

// self is this process as a marker names it.
func self() writer {
	id, ok := sysprobe.Self()
	if !ok {
		id = sysprobe.Identity{PID: os.Getpid()}
	}
	return writer{id, ok}
}

// writeMarker writes this process's marker into the new scratch directory
// dir (private to the process until then: no other writer).
func writeMarker(dir string) error {
	return os.WriteFile(filepath.Join(dir, markerName), []byte(self().String()), 0o644)
}

// errNoMarker is readMarker's answer for anything but a marker gapset wrote.
var errNoMarker = errors.New("no marker")

// readMarker reads the marker of the temporary at path, which must be a
// directory (not a link to one) holding one as a regular file.
func readMarker(path string) (writer, error) {
	st, err := os.Lstat(path)
	if err != nil {
		return writer{}, err
	}
	if !st.IsDir() {
		return writer{}, errNoMarker
	}
	m := filepath.Join(path, markerName)
	if st, err := os.Lstat(m); err != nil || !st.Mode().IsRegular() {
		return writer{}, errNoMarker
	}
	b, err := infile.ReadAll(m, "a temporary's marker", 1024)
	if err != nil {
		return writer{}, errNoMarker
	}
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) == 0 || lines[0] != markerHead {
		return writer{}, errNoMarker
	}
	var w writer
	fields := map[string]string{}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, " ")
		if !ok || fields[k] != "" || v == "" {
			return writer{}, errNoMarker
		}
		fields[k] = v
	}
	if w.id.PID, err = strconv.Atoi(fields["pid"]); err != nil || w.id.PID <= 0 {
		return writer{}, errNoMarker
	}
	switch len(fields) {
	case 1:
	case 4:
		w.id.Boot, w.id.PIDNS, w.ok = fields["boot"], fields["pidns"], true
		if w.id.Start, err = strconv.ParseUint(fields["start"], 10, 64); err != nil || w.id.Boot == "" || w.id.PIDNS == "" {
			return writer{}, errNoMarker
		}
	default:
		return writer{}, errNoMarker
	}
	return w, nil
}

// Mine reports whether the temporary at path was made by this process
// (its marker says so), which may then remove it.
func Mine(path string) bool {
	w, err := readMarker(path)
	return err == nil && w == self()
}

// tmpName matches every temporary's name and captures the writer's PID.
var tmpName = regexp.MustCompile(`^\..+\.tmp-([0-9]+)-[0-9]+$`)

// namedPID returns the PID in a temporary's name, and false for a name
// that is not a temporary's.
func namedPID(name string) (int, bool) {
	m := tmpName.FindStringSubmatch(name)
	if m == nil {
		return 0, false
	}
	pid, err := strconv.Atoi(m[1])
	return pid, err == nil && pid > 0
}

// Alive reports whether process pid (of this process's PID namespace)
// exists and can still write: a zombie (a process killed but not yet torn
// down) counts as gone; where the system cannot tell, it is alive.
func Alive(pid int) bool {
	p, err := sysprobe.Process(pid)
	switch {
	case errors.Is(err, sysprobe.ErrNoProcess):
		return false
	case err == nil:
		return !p.Exited()
	}
	return signalable(pid)
}

// Leftover is an entry of a directory named as a temporary that is not
// this process's.
type Leftover struct {
	Path string
	PID  int    // the writer's PID its name gives
	Why  string // why it stays (RemoveStale's doubtful ones)
}

// verdict is what RemoveStale makes of a temporary.
type verdict int

const (
	live    verdict = iota // its writer runs: leave it
	gone                   // its writer is proven gone: remove it
	doubted                // not proven ours, or its writer not proven gone
)

// RemoveStale removes the temporaries in dir whose writer is proven gone
// and returns them, and those it leaves in doubt with the reason. A
// temporary is removed only when its marker proves it gapset's and names
// a writer of this boot and PID namespace (so that this process can see
// it) that has ended: no process has its PID, or one started at another
// time has (the PID was given again), or it is a zombie. Anything named
// as a temporary without such proof is doubtful: no marker (a user's file,
// or a temporary of a gapset older than markers), a writer of another
// PID namespace or machine or an earlier boot, or a system that cannot
// tell. Entries not named as temporaries (outputs, checkpoints), this
// process's own and those of live writers are left without a word.
func RemoveStale(dir string) (removed, doubtful []Leftover) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil
	}
	me := self()
	for _, e := range entries {
		pid, ok := namedPID(e.Name())
		if !ok {
			continue
		}
		path := filepath.Join(dir, e.Name())
		switch v, why := judge(path, pid, me); v {
		case gone:
			if err := os.RemoveAll(path); err != nil {
				doubtful = append(doubtful, Leftover{path, pid, "it could not be removed: " + err.Error()})
			} else {
				removed = append(removed, Leftover{Path: path, PID: pid})
			}
		case doubted:
			doubtful = append(doubtful, Leftover{path, pid, why})
		}
	}
	return removed, doubtful
}

// judge decides on the temporary at path, named for process pid, as seen
// by the process me.
func judge(path string, pid int, me writer) (verdict, string) {
	w, err := readMarker(path)
	switch {
	case err != nil:
		return doubted, "it holds no marker of a gapset writer"
	case w.id.PID != pid:
		return doubted, "its marker names another process than its name"
	case w == me:
		return live, ""
	case !w.ok || !me.ok:
		return doubted, "this system does not tell whether its writer is gone"
	case w.id.Boot != me.id.Boot:
		return doubted, "its writer ran on another machine or before this machine's last start"
	case w.id.PIDNS != me.id.PIDNS:
		return doubted, "its writer ran in another PID namespace"
	case pid == me.id.PID:
		return gone, "" // an earlier process with this PID: ours started later
	}
	p, err := sysprobe.Process(pid)
	switch {
	case errors.Is(err, sysprobe.ErrNoProcess):
		return gone, ""
	case err != nil:
		return doubted, "its writer's state cannot be read: " + err.Error()
	case p.Start != w.id.Start || p.Exited():
		return gone, "" // the PID given again, or a zombie
	}
	return live, ""
}
