package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnchorHabits: what a user of oha, hey, vegeta or k6 types first
// works: the target as the argument, -n a count (of turns), -H a header,
// -o the result file, `readbench version`. Before, the URL was taken for
// a workload file ("no such file, and unknown scenario"), the short flags
// were unknown (exit 2) and `version` an unknown command.
func TestAnchorHabits(t *testing.T) {
	t.Parallel()
	url := sharedServe(t)
	dir := t.TempDir()
	_, stderr, code := readbench(t, dir, "run", url, "-n", "5", "--rate", "20/s", "--warmup", "0s", "-o", "r.json", "-H", "X-Habit: habit-secret-5e1f", "-q")
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, stderr)
	}
	res := loadResult(t, filepath.Join(dir, "r.json"))
	if res.Target.Transport != "http" || res.Totals.Turns != 5 || res.Totals.Scheduled != 20 {
		t.Errorf("transport %q, %d turns, %d reads; want http, 5 turns of the default scenario's 4 reads",
			res.Target.Transport, res.Totals.Turns, res.Totals.Scheduled)
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Workload struct {
			Headers map[string]string `json:"headers"`
		} `json:"workload"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Workload.Headers["X-Habit"]; !ok || strings.Contains(string(data), "habit-secret-5e1f") {
		t.Errorf("-H: the workload's headers are %v (the value must be saved masked)", doc.Workload.Headers)
	}
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"version"}, 0, "readbench version "},
		{[]string{"-v"}, 0, "readbench version "},
		{[]string{"run", url, "--target", url}, 2, "give the target once"},
		{[]string{"run", "-n", "5", "-d", "2s"}, 2, "give --turns or --duration, not both"},
		{[]string{"ab", url, "--base", "embedded", "--new", "embedded"}, 2, "is a target, not a workload file or scenario"},
		{[]string{"run", "127.0.0.1:18090"}, 2, "did you mean --target http://127.0.0.1:18090/mcp?"},
	} {
		stdout, stderr, code := readbench(t, dir, tc.args...)
		if code != tc.code || !strings.Contains(stdout+stderr, tc.want) {
			t.Errorf("readbench %s: exit %d, want %d saying %q:\n%s%s", strings.Join(tc.args, " "), code, tc.code, tc.want, stdout, stderr)
		}
	}
}
