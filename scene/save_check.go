package scene

import (
	"crypto/sha256"
	"errors"
	"io"
	"io/fs"
	"os"
	"time"
)

// FileStamp is what a file was when a document was read from it: a save in
// place compares the file on disk with it, so that a change another
// program made since is not overwritten without asking.
type FileStamp struct {
	Path string
	// Missing: there was no file.
	Missing bool
	Size    int64
	ModTime time.Time
	// Hash is the SHA-256 of the content: a change that keeps the size and
	// lands within the file system's time resolution still shows.
	Hash [sha256.Size]byte
	// At is when the stamp was taken.
	At time.Time
}

// racyWindow: a file whose time is this close to (or after) its stamp may
// have been written again within the file system's time resolution, so
// the same size and time do not prove the same content (git's "racily
// clean" entries).
const racyWindow = 2 * time.Second

// StampFiles stamps each of paths as it is now (a path that cannot be
// read is stamped missing).
func StampFiles(paths ...string) []FileStamp {
	out := make([]FileStamp, 0, len(paths))
	for _, p := range paths {
		out = append(out, stampFile(p))
	}
	return out
}

func stampFile(path string) FileStamp {
	s := FileStamp{Path: path, Missing: true, At: time.Now()}
	f, err := openRegular(path)
	if err != nil {
		return s
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return s
	}
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return s
	}
	s.Missing, s.Size, s.ModTime = false, fi.Size(), fi.ModTime()
	copy(s.Hash[:], h.Sum(nil))
	return s
}

// ChangedFiles returns the stamped files that are not what their stamps
// say any more: another size or content, made, or removed. A file whose
// time alone changed (touched, or written again with the same bytes) is
// the same file. The content is hashed again only when the size is the
// same and the time does not settle it: a file with the stamp's size and
// time, stamped well after that time, has not been written since.
func ChangedFiles(stamps []FileStamp) []string {
	var out []string
	for _, s := range stamps {
		fi, err := os.Stat(s.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if !s.Missing {
				out = append(out, s.Path)
			}
			continue
		case err != nil:
			continue
		case s.Missing || fi.Size() != s.Size:
			out = append(out, s.Path)
			continue
		case fi.ModTime().Equal(s.ModTime) && s.ModTime.Before(s.At.Add(-racyWindow)):
			continue
		}
		if now := stampFile(s.Path); now.Missing || now.Hash != s.Hash {
			out = append(out, s.Path)
		}
	}
	return out
}
