package corecheck

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular says a path names a named pipe, a socket, a device or a
// folder where a file of data belongs. Opening a named pipe blocks until a
// writer comes (forever, for a model that names one), and a device may
// never end: such files are refused by their mode before they are opened,
// and opened without blocking in case one is swapped in after the check.
var ErrNotRegular = errors.New("not a regular file")

// kindName names the type of a file mode that is not regular.
func kindName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a folder"
	}
	return "not a regular file"
}

// notRegular returns the ErrNotRegular error for a file of mode m.
func notRegular(m fs.FileMode) error {
	return fmt.Errorf("%w: it is %s", ErrNotRegular, kindName(m))
}

// OpenRegular opens path for reading only if it is, symbolic links
// followed, a regular file: anything else is refused with ErrNotRegular
// (wrapped in an *fs.PathError) without being opened. The file is opened
// with O_NONBLOCK and checked again, so a FIFO put in its place between the
// check and the open cannot block the reader either.
func OpenRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: path, Err: notRegular(st.Mode())}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if st, err = f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &fs.PathError{Op: "open", Path: path, Err: notRegular(st.Mode())}
		}
		return nil, err
	}
	return f, nil
}

// ReadRegular reads the whole of path, refusing what OpenRegular refuses.
func ReadRegular(path string) ([]byte, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSized(f)
}

// readSized reads all of f into a buffer sized once from its Stat, as
// os.ReadFile does (a buffer of a gigabyte is not grown by doubling).
func readSized(f fs.File) ([]byte, error) {
	var size int64
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	data := make([]byte, 0, size+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}

// openRegularFS opens name in fsys only if Stat says it is a regular file
// (whatever fsys is: os.DirFS follows links and would block on a FIFO).
// scene.FolderFS opens with OpenRegular, which also closes the race.
func openRegularFS(fsys fs.FS, name string) (fs.File, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "open", Path: name, Err: notRegular(st.Mode())}
	}
	return fsys.Open(name)
}

// readRegularFS reads name from fsys, refusing what openRegularFS refuses.
func readRegularFS(fsys fs.FS, name string) ([]byte, error) {
	f, err := openRegularFS(fsys, name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readSized(f)
}
