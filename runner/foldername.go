package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// fileExtensions are the extensions of the files readbench writes or
// reads (its pages, documents, recordings): a --out that ends so was
// meant as a file.
var fileExtensions = map[string]bool{".html": true, ".htm": true, ".json": true, ".jsonl": true, ".md": true,
	".markdown": true, ".xml": true, ".csv": true, ".txt": true, ".yaml": true, ".yml": true, ".hlog": true}

// FolderName refuses, for capacity's and ab's --out (the folder that
// holds their many results), a name that reads as a file's
// ("cap.html", "ab.json"), unless a folder of that name exists: there
// --out does not mean what it means to run (the result) or to report and
// compare (the rendered output), and a user who wrote --out cap.html
// wants the page in that file, not a folder called so and the page on
// stdout. The message says both flags' ways: the folder by --out, the
// report in format by redirecting stdout.
func FolderName(dir, command, holds, format string) error {
	ext := strings.ToLower(filepath.Ext(dir))
	if !fileExtensions[ext] {
		return nil
	}
	if info, err := os.Stat(dir); err == nil && info.IsDir() {
		return nil
	}
	folder := strings.TrimSuffix(dir, filepath.Ext(dir))
	return fmt.Errorf("--out %s looks like a file name (%s), but %s's --out is the folder %s: "+
		"name a folder (--out %s); the report is printed on stdout: readbench %s … --format %s > %s",
		dir, ext, command, holds, folder, command, format, dir)
}
