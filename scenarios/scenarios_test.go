package scenarios

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
)

// Every built-in scenario must parse and build a plan: a broken one would
// only be found by a user.
func TestScenariosParseAndPlan(t *testing.T) {
	names := Names()
	if !slices.Contains(names, Default) {
		t.Fatalf("Names() = %v, want it to hold the default %q", names, Default)
	}
	if !slices.IsSorted(names) {
		t.Errorf("Names() = %v, not sorted", names)
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			data, err := Get(name)
			if err != nil {
				t.Fatal(err)
			}
			w, err := yamlfile.Parse(Source(name), data)
			if err != nil {
				t.Fatal(err)
			}
			if w.Name != name {
				t.Errorf("name = %q, want the file's name %q", w.Name, name)
			}
			if w.Description == "" {
				t.Errorf("no description: readbench scenarios lists it")
			}
			p, err := workload.NewSampling(w)
			if err != nil {
				t.Fatal(err)
			}
			for i := range uint64(100) {
				if len(p.Turn(i)) == 0 {
					t.Fatalf("turn %d has no attachments", i)
				}
			}
		})
	}
}

// The default scenario says what docs/workload.md and its own comments say it says.
func TestDocsAttachments(t *testing.T) {
	data, err := Get("docs-attachments.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w, err := yamlfile.Parse(Source(Default), data)
	if err != nil {
		t.Fatal(err)
	}
	if w.Source != "<builtin>/docs-attachments.yaml" {
		t.Errorf("Source = %q", w.Source)
	}
	got := []any{w.Target.Kind, w.Sessions, w.Seed, w.Load.Model, w.Load.Arrival, w.Load.Rate.PerSecond,
		w.Load.Warmup.String(), w.Load.Duration.String(), w.Turn.Attachments.Fixed,
		w.Turn.ReadTimeout.String(), w.Turn.Deadline.String(), len(w.Mix)}
	want := []any{targets.Embedded, 2, int64(42), "open", "constant", 10.0, "1s", "10s", 4, "5s", "800ms", 3}
	if !slices.Equal(got, want) {
		t.Errorf("got  %v\nwant %v", got, want)
	}
	md, png, gone := w.Mix[0], w.Mix[1], w.Mix[2]
	if md.Name != "markdown" || md.Weight != 70 || md.MIME != "text/markdown" ||
		md.Size.String() != "lognormal(8KiB,200KiB)" || md.Delay.String() != "lognormal(12ms,40ms)" {
		t.Errorf("markdown class = %+v", md)
	}
	if png.Name != "screenshot" || png.Weight != 25 || png.MIME != "image/png" ||
		png.Size.String() != "1834208" || png.Delay.String() != "lognormal(12ms,40ms)" {
		t.Errorf("screenshot class = %+v", png)
	}
	if gone.Name != "renamed-policy" || gone.Weight != 5 ||
		gone.URI != "docs://team/platform/policy/on-call-escalation" || gone.Expect != "not_found" {
		t.Errorf("renamed-policy class = %+v", gone)
	}
}

func TestGetUnknown(t *testing.T) {
	for _, name := range []string{"nope", "", "../go.mod", "*"} {
		_, err := Get(name)
		if err == nil {
			t.Fatalf("Get(%q) succeeded", name)
		}
		if !strings.Contains(err.Error(), Default) {
			t.Errorf("Get(%q) error %q does not list the known names", name, err)
		}
	}
}

// TestLoad: a path that exists is read as a file, anything else as a
// built-in scenario, "" as the default one; an unknown name says there is
// no such file and lists the scenarios.
func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mine.yaml")
	if err := os.WriteFile(path, []byte("name: mine\nload: {rate: 1/s, duration: 1s}\nmix:\n  - {class: c, uri: \"docs://a\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for arg, want := range map[string]string{path: "mine", "": Default, "large-log": "large-log", "saved-session.yaml": "saved-session"} {
		w, err := Load(arg)
		if err != nil || w.Name != want {
			t.Errorf("Load(%q): %v, %v; want workload %q", arg, w, err, want)
		}
	}
	if _, err := Load("no-such"); err == nil || !strings.Contains(err.Error(), "no such file") || !strings.Contains(err.Error(), Default) {
		t.Errorf("Load(no-such): %v, want no such file and the scenarios listed", err)
	}
}
