package store

import (
	"fmt"
	"sync/atomic"
	"syscall"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// FullFS is a file system that behaves as a full disk while its switch is on: every write, sync, preallocation
// and file creation fails with ENOSPC, reads keep working. It is for tests and drills of the disk-full path
// (Options.FS); a real full disk fails the same calls with the same error.
type FullFS struct {
	vfs.FS
	full atomic.Bool
	low  atomic.Bool
}

// NewFullFS wraps fs; the disk starts with room.
func NewFullFS(fs vfs.FS) *FullFS { return &FullFS{FS: fs} }

// SetFull flips the switch.
func (fs *FullFS) SetFull(full bool) { fs.full.Store(full) }

// SetLow makes the disk report no free space while writes still succeed: a disk that fills gradually, whose
// space check (the store's reserve) refuses a commit before pebble's own writes fail. Tests of recovery use it,
// since SetFull can land between that check and pebble's write, which the store does not recover from until a
// restart.
func (fs *FullFS) SetLow(low bool) { fs.low.Store(low) }

func (fs *FullFS) check(op, name string) error {
	if fs.full.Load() {
		return fmt.Errorf("%s %s: %w", op, name, syscall.ENOSPC)
	}
	return nil
}

func (fs *FullFS) wrap(f vfs.File, name string, err error) (vfs.File, error) {
	if err != nil {
		return nil, err
	}
	return &fullFile{File: f, fs: fs, name: name}, nil
}

func (fs *FullFS) Create(name string, c vfs.DiskWriteCategory) (vfs.File, error) {
	if err := fs.check("create", name); err != nil {
		return nil, err
	}
	f, err := fs.FS.Create(name, c)
	return fs.wrap(f, name, err)
}

func (fs *FullFS) ReuseForWrite(oldname, newname string, c vfs.DiskWriteCategory) (vfs.File, error) {
	if err := fs.check("reuse", newname); err != nil {
		return nil, err
	}
	f, err := fs.FS.ReuseForWrite(oldname, newname, c)
	return fs.wrap(f, newname, err)
}

func (fs *FullFS) OpenReadWrite(name string, c vfs.DiskWriteCategory, opts ...vfs.OpenOption) (vfs.File, error) {
	f, err := fs.FS.OpenReadWrite(name, c, opts...)
	return fs.wrap(f, name, err)
}

func (fs *FullFS) OpenDir(name string) (vfs.File, error) {
	f, err := fs.FS.OpenDir(name)
	return fs.wrap(f, name, err)
}

func (fs *FullFS) Link(oldname, newname string) error {
	if err := fs.check("link", newname); err != nil {
		return err
	}
	return fs.FS.Link(oldname, newname)
}

type fullFile struct {
	vfs.File
	fs   *FullFS
	name string
}

func (f *fullFile) Write(p []byte) (int, error) {
	if err := f.fs.check("write", f.name); err != nil {
		return 0, err
	}
	return f.File.Write(p)
}

func (f *fullFile) WriteAt(p []byte, off int64) (int, error) {
	if err := f.fs.check("write", f.name); err != nil {
		return 0, err
	}
	return f.File.WriteAt(p, off)
}

func (f *fullFile) Preallocate(off, n int64) error {
	if err := f.fs.check("preallocate", f.name); err != nil {
		return err
	}
	return f.File.Preallocate(off, n)
}

func (f *fullFile) Sync() error {
	if err := f.fs.check("sync", f.name); err != nil {
		return err
	}
	return f.File.Sync()
}

func (f *fullFile) SyncData() error {
	if err := f.fs.check("sync", f.name); err != nil {
		return err
	}
	return f.File.SyncData()
}

func (f *fullFile) SyncTo(n int64) (bool, error) {
	if err := f.fs.check("sync", f.name); err != nil {
		return false, err
	}
	return f.File.SyncTo(n)
}

// GetDiskUsage reports no free space while the disk is full or low, else what the wrapped file system reports; a
// wrapped file system that cannot tell (in memory) never can.
func (fs *FullFS) GetDiskUsage(path string) (vfs.DiskUsage, error) {
	u, err := fs.FS.GetDiskUsage(path)
	if err == nil && (fs.full.Load() || fs.low.Load()) {
		u.AvailBytes, u.UsedBytes = 0, u.TotalBytes
	}
	return u, err
}
