package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFolderName: capacity's and ab's --out, a folder, refuses a name
// that reads as a file's, saying how to get the folder and the file;
// a folder that exists under such a name is still a folder.
func TestFolderName(t *testing.T) {
	dir := t.TempDir()
	dotted := filepath.Join(dir, "old.json")
	if err := os.Mkdir(dotted, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ out, want string }{
		{"cap", ""},
		{"runs/capacity-1", ""},
		{"cap.v2", ""},
		{dotted, ""},
		{"cap.html", "--out cap.html looks like a file name (.html), but capacity's --out is the folder the steps are in: name a folder (--out cap); the report is printed on stdout: readbench capacity … --format html > cap.html"},
		{"out/AB.JSON", "(.json)"},
		{"x.md", "(.md)"},
	} {
		err := FolderName(tc.out, "capacity", "the steps are in", "html")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("FolderName(%q): %v, want it accepted", tc.out, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("FolderName(%q): %v\nwant %q", tc.out, err, tc.want)
		}
	}
}
