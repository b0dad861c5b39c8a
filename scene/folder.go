package scene

import (
	"errors"
	"fmt"
	iofs "io/fs"
	"path/filepath"

	"physview/scene/corecheck"
)

// ErrOutsideFolder says a resource the document refers to by a relative
// name is, or passes through, a symbolic link that leads outside the
// document's folder. It is refused like a "../" name: reading it would let
// a model pull any file the user can read into a view, a .glb or a copy.
var ErrOutsideFolder = errors.New("a symbolic link leads outside the model's folder")

// FolderFS returns dir as a file system in which every name must resolve,
// symbolic links followed, to a file inside dir; a name that leads out of
// it fails with ErrOutsideFolder (in an *fs.PathError). Links inside the
// folder are followed as usual. Only regular files open: a named pipe,
// socket or device fails with corecheck.ErrNotRegular without blocking.
func FolderFS(dir string) iofs.FS { return folderFS(dir) }

type folderFS string

func (f folderFS) Open(name string) (iofs.File, error) {
	if !iofs.ValidPath(name) {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: iofs.ErrInvalid}
	}
	real, err := resolveInside(string(f), filepath.FromSlash(name))
	if err != nil {
		return nil, &iofs.PathError{Op: "open", Path: name, Err: err}
	}
	return corecheck.OpenRegular(real)
}

// resolveInside returns the path of local name under dir with every
// symbolic link resolved, or ErrOutsideFolder when that path is not under
// dir (itself resolved: the folder may be reached through a link).
func resolveInside(dir, name string) (string, error) {
	if !filepath.IsLocal(name) {
		return "", ErrOutsideFolder
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", unwrapPathError(err)
	}
	real, err := filepath.EvalSymlinks(filepath.Join(root, name))
	if err != nil {
		return "", unwrapPathError(err)
	}
	rel, err := filepath.Rel(root, real)
	if err != nil || !filepath.IsLocal(rel) {
		return "", ErrOutsideFolder
	}
	return real, nil
}

// ReadInFolder reads the file a relative name (slash-separated, as in a
// URI) refers to in dir, refusing names that leave dir ("../", an absolute
// path, or a symbolic link that leads outside it: ErrOutsideFolder).
// Errors name the file as the document does.
func ReadInFolder(dir, name string) ([]byte, error) {
	real, err := resolveInside(dir, filepath.FromSlash(name))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	data, err := corecheck.ReadRegular(real)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, unwrapPathError(err))
	}
	return data, nil
}
