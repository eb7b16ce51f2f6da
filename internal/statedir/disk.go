package statedir

import "sync"

// Disk counts the bytes of an enumeration's run files on the disk and
// their peak: the peak_disk_bytes both enumerators report. `gapset
// enumerate` adds each file as it is closed and removes it as it goes (from
// any worker); the cluster's driver observes the whole state after each
// step (the manifests give every file's size).
type Disk struct {
	mu        sync.Mutex
	now, peak int64
}

// Add counts a file of n bytes written.
func (d *Disk) Add(n int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.now += n
	d.peak = max(d.peak, d.now)
}

// Remove counts a file of n bytes removed.
func (d *Disk) Remove(n int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.now -= n
}

// Observe sets the bytes on the disk now.
func (d *Disk) Observe(n int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.now = n
	d.peak = max(d.peak, d.now)
}

// Resume raises the peak to an earlier process's.
func (d *Disk) Resume(peak int64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.peak = max(d.peak, peak)
}

// Now is the bytes on the disk; Peak their maximum so far.
func (d *Disk) Now() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.now
}

func (d *Disk) Peak() int64 {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.peak
}
