package atomicfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// ReadJSON decodes the JSON file at path into v. A missing file is not an
// error: found is false and v is untouched, because the stores built on
// these files (privileges, views) start empty. what names the file in
// errors ("views file").
func ReadJSON(path, what string, v any) (found bool, err error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s %s: %v", what, path, err)
	}
	return true, nil
}

// WriteJSON replaces path with v as indented JSON, with mode 0600: these
// files hold privileges and definitions only their owner should read.
func WriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return Write(path, b, 0o600)
}
