package workload

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/bounds"
	"github.com/readbench/readbench/internal/golden"
	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// The secrets of the fixtures: none may reach a saved workload.
const (
	secretHeader   = "Bearer h3ader-s3cret-value"
	secretPassword = "url-passw0rd"
	secretClient   = "cl13nt-s3cret"
	secretEnv      = "env-s3cret"
)

// savedFixtures are resolved workloads with every field set, somewhere
// among them (TestSavedFixturesSetEveryField checks it), in ways a file
// can write them: what a saved result must give back.
func savedFixtures(t *testing.T) map[string]*Workload {
	t.Helper()
	rate := func(s string) units.Rate {
		r, err := units.ParseRate(s)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	dist := func(parse func(string) (units.Dist, error), s string) *units.Dist {
		d, err := parse(s)
		if err != nil {
			t.Fatal(err)
		}
		return &d
	}
	threshold := func(metric, bound string) Threshold {
		p, err := bounds.ParseThresholdPair(metric, bound)
		if err != nil {
			t.Fatal(err)
		}
		return Threshold{Metric: metric, Bound: bound, Parsed: p}
	}
	listening := func(name string, l *Listen, c *Changes) *Workload {
		return &Workload{
			Name: name, Source: name + ".yaml", Target: targets.Target{Kind: targets.HTTP, Address: "http://127.0.0.1:8080/mcp"},
			Protocol: DefaultProtocol, Sessions: 1, Seed: 1,
			Load:   Load{Model: ModelOpen, Rate: rate("10/s"), Arrival: ArrivalConstant, Duration: time.Minute, MaxInFlight: DefaultMaxInFlight},
			Turn:   Turn{Attachments: Attachments{Fixed: 1}, ReadTimeout: DefaultReadTimeout},
			Mix:    []Class{{Name: "markdown", Weight: 1, URIs: []string{"docs://a", "docs://b"}}},
			Listen: l, Changes: c,
		}
	}
	h2 := listening("http2", nil, nil)
	h2.HTTP = HTTP{Version: HTTP2, Connections: 8, StreamsPerConnection: 100}
	return map[string]*Workload{
		"http2 connections and streams": h2,
		"listeners on a class, tool changes": listening("listen-tool",
			&Listen{Listeners: 100, Streams: 3, URIs: ListenURIs{Class: "markdown"}, ListChanged: true, Ramp: 10 * time.Second,
				Reread: Reread{IgnoreTTL: true, HonourScope: true, Jitter: dist(units.ParseDurationDist, "uniform(0ms, 200ms)")}},
			&Changes{Rate: rate("5/s"), URIs: ListenURIs{List: []string{"docs://a"}},
				Via: ChangeVia{Tool: &ToolChange{Name: "touch", Args: map[string]any{"uri": ChangeURI, "times": 2.0}}}}),
		"listeners on every attachment, http changes": listening("listen-http",
			&Listen{Listeners: 1, Streams: 1, URIs: ListenURIs{Attached: true}, Reread: Reread{Off: true}},
			&Changes{Rate: rate("1/s"), URIs: ListenURIs{Attached: true},
				Via: ChangeVia{HTTP: &HTTPChange{Method: "PUT", URL: "https://bench:" + secretPassword + "@cms.example.com/touch?uri={uri}",
					Body: `{"uri":"{uri}"}`, Headers: map[string]string{"Authorization": secretHeader}}}}),
		"listeners on a list, command changes": listening("listen-command",
			&Listen{Listeners: 2, Streams: 1, URIs: ListenURIs{List: []string{"docs://a", "docs://b"}}},
			&Changes{Rate: rate("2/s"), URIs: ListenURIs{Class: "markdown"},
				Via: ChangeVia{Command: []string{"touch-doc", "--uri", ChangeURI}}}),
		"listeners, changes the server makes": listening("listen-server",
			&Listen{Listeners: 5, Streams: 2, URIs: ListenURIs{Attached: true}},
			&Changes{URIs: ListenURIs{Attached: true}, Via: ChangeVia{Server: true}}),
		"http, open, fixed attachments": {
			Name: "every-key", Description: "not saved", Source: "every.yaml",
			Target:   targets.Target{Kind: targets.HTTP, Address: "https://bench:" + secretPassword + "@staging.example.com/mcp"},
			Protocol: "2025-11-25", Sessions: 12, Seed: -42,
			Load: Load{
				Model: ModelOpen, Rate: rate("3000/min"), Arrival: ArrivalPoisson,
				Warmup: 2 * time.Second, Duration: 30 * time.Second, Turns: 500,
				Stages:      []Stage{{Rate: rate("10/s"), For: 10 * time.Second, Ramp: true}, {Rate: rate("100/s"), For: 5 * time.Second}},
				MaxInFlight: 77, HandshakeTimeout: 45 * time.Second, ConnectRate: rate("20/s"), MinSessions: 9,
				SessionTurns: 20, SessionLifetime: time.Minute, NoKeepAlive: true, TraceSample: new(0.25),
			},
			Turn: Turn{Attachments: Attachments{Fixed: 4}, ReadTimeout: 3 * time.Second, Deadline: 800 * time.Millisecond, MaxAnswer: 1 << 20},
			Mix: []Class{
				{Name: "markdown", Weight: 70, URI: "docs://a", URIs: []string{"docs://b", "docs://c"}, Template: "docs://{x}",
					Vars: map[string][]string{"x": {"1", "2"}}, MIME: "text/markdown",
					Size:    dist(units.ParseSizeDist, "lognormal(8KiB, 200KiB)"),
					Delay:   dist(units.ParseDurationDist, "lognormal(12ms, 40ms)"),
					Entries: 3, Expect: "not_found", Ranged: &Ranged{Chunk: 256 << 10}},
				{Name: "shots", Weight: 0.5, MIME: "image/*", SizeRange: &SizeRange{Min: 1 << 10, Max: 5 << 20}},
			},
			Headers:    map[string]string{"Authorization": secretHeader},
			AllowHosts: []string{"staging.example.com"},
			Thresholds: []Threshold{threshold("errors", "<1%"), threshold("turn.p99", "<800ms")},
			Auth: &Auth{OAuth: &OAuth{Grant: "client_credentials", ClientID: "loadtest", ClientSecret: secretClient,
				Scope: "mcp:read", PrivateKey: "keys/k.pem", TokenEndpointAuth: "client_secret_post",
				TokenParams: map[string][]string{"audience": {"https://api"}, "resource": {"urn:a", "urn:b"}}}},
			InsecureCredentials: true,
		},
		"stdio, closed, weighted attachments": {
			Name: "weighted", Source: "<builtin>/w.yaml",
			Target:   targets.Target{Kind: targets.Stdio, Argv: []string{"env", "MYSQL_PASS=" + secretEnv, "npx", "-y", "server with space"}},
			Protocol: DefaultProtocol, Sessions: 1, Seed: 7,
			Load: Load{Model: ModelClosed, Concurrency: 8, Arrival: ArrivalConstant, Turns: 100, MaxInFlight: DefaultMaxInFlight},
			Turn: Turn{Attachments: Attachments{Weighted: map[int]int{1: 50, 4: 40, 10: 10}}, ReadTimeout: DefaultReadTimeout},
			Mix:  []Class{{Name: "fixed", Weight: 1, MIME: "text/plain", Size: dist(units.ParseSizeDist, "1834208")}},
		},
	}
}

// withoutSecrets is w as a saved result gives it back: the fields that are
// not saved left zero, and every secret the placeholder Redacted
// (or, in a URL, the mask), which a run refuses until it is given again.
func withoutSecrets(w *Workload) *Workload {
	c := *w
	c.Description, c.InsecureCredentials = "", false
	c.Target.Address = strings.ReplaceAll(c.Target.Address, secretPassword, maskedPassword)
	c.Target.Argv = slices.Clone(c.Target.Argv)
	for i, a := range c.Target.Argv {
		c.Target.Argv[i] = strings.ReplaceAll(a, secretEnv, maskedPassword)
	}
	if c.Headers != nil {
		c.Headers = map[string]string{}
		for k := range w.Headers {
			c.Headers[k] = Redacted
		}
	}
	if w.Auth != nil {
		o := *w.Auth.OAuth
		o.ClientSecret = Redacted
		c.Auth = &Auth{OAuth: &o}
	}
	if w.Changes != nil && w.Changes.Via.HTTP != nil {
		ch, h := *w.Changes, *w.Changes.Via.HTTP
		h.URL = strings.ReplaceAll(h.URL, secretPassword, maskedPassword)
		h.Headers = map[string]string{}
		for k := range w.Changes.Via.HTTP.Headers {
			h.Headers[k] = Redacted
		}
		ch.Via.HTTP = &h
		c.Changes = &ch
	}
	return &c
}

// readBack is w marshalled as a result saves it and unmarshalled again,
// with the saved bytes.
func readBack(t *testing.T, w *Workload) (*Workload, []byte) {
	t.Helper()
	b, err := json.Marshal(w)
	if err != nil {
		t.Fatal(err)
	}
	var back Workload
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatalf("Unmarshal: %v\n%s", err, b)
	}
	return &back, b
}

// TestSavedRoundTrip: a resolved workload, marshalled as a result saves it
// and read back, is the same workload, every field compared: a field that
// MarshalJSON or UnmarshalJSON leaves out fails here.
func TestSavedRoundTrip(t *testing.T) {
	for name, w := range savedFixtures(t) {
		t.Run(name, func(t *testing.T) {
			got, b := readBack(t, w)
			if want := withoutSecrets(w); !reflect.DeepEqual(got, want) {
				t.Errorf("read back:\n%#v\nwant:\n%#v\nsaved: %s", got, want, b)
			}
			for _, secret := range []string{secretHeader, "h3ader-s3cret", secretPassword, secretClient, secretEnv} {
				if bytes.Contains(b, []byte(secret)) {
					t.Errorf("the saved workload holds the secret %q: %s", secret, b)
				}
			}
		})
	}
}

// TestSavedGolden: the saved form of each fixture, byte for byte, as a
// result document writes it (indented, HTML escaped): the files were
// written by the saved form before the workload marshalled itself, so
// every key, value and order of keys is the one results have always had.
func TestSavedGolden(t *testing.T) {
	for name, w := range savedFixtures(t) {
		b, err := json.MarshalIndent(w, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		file := strings.NewReplacer(", ", "-", " ", "-").Replace(name) + ".json"
		golden.Check(t, "saved/"+file, "the saved form of "+name, append(b, '\n'))
	}
}

// TestSavedFixturesSetEveryField: every exported field of the resolved
// workload's types is set in one of the fixtures at least, so that the
// round trip above covers a field as soon as it is added: a new field
// fails here until a fixture sets it, then there until it is saved.
func TestSavedFixturesSetEveryField(t *testing.T) {
	set := map[string]bool{}
	for _, w := range savedFixtures(t) {
		setFields(reflect.ValueOf(w).Elem(), "Workload", set)
	}
	for _, path := range fieldPaths(reflect.TypeFor[Workload](), "Workload") {
		if !set[path] {
			t.Errorf("no fixture sets %s: set it in savedFixtures (and save it: MarshalJSON, UnmarshalJSON)", path)
		}
	}
}

// ownStruct reports whether t is a struct of this package, whose fields
// are checked one by one; other types (a Rate, a Target, a Duration) are
// values, set or not as a whole.
func ownStruct(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && t.PkgPath() == reflect.TypeFor[Workload]().PkgPath()
}

// elem is what a pointer, slice or map holds.
func elem(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
		t = t.Elem()
	}
	return t
}

// fieldPaths lists the exported fields of t and of the structs of this
// package it holds, as "Workload.Load.Rate".
func fieldPaths(t reflect.Type, prefix string) []string {
	var out []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue // where a key was written: not part of what ran
		}
		path := prefix + "." + f.Name
		out = append(out, path)
		if e := elem(f.Type); ownStruct(e) {
			out = append(out, fieldPaths(e, path)...)
		}
	}
	return out
}

// setFields marks in set the field paths of v that hold a value that is
// not zero.
func setFields(v reflect.Value, prefix string, set map[string]bool) {
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		path, fv := prefix+"."+f.Name, v.Field(i)
		switch fv.Kind() {
		case reflect.Slice, reflect.Map: // an empty one is as good as none
			set[path] = set[path] || fv.Len() > 0
		default:
			set[path] = set[path] || !fv.IsZero()
		}
		for _, e := range values(fv) {
			if ownStruct(e.Type()) {
				setFields(e, path, set)
			}
		}
	}
}

// values is what v holds: itself, the value it points to, or its elements.
func values(v reflect.Value) []reflect.Value {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		return values(v.Elem())
	case reflect.Slice:
		var out []reflect.Value
		for i := range v.Len() {
			out = append(out, values(v.Index(i))...)
		}
		return out
	case reflect.Map:
		var out []reflect.Value
		for it := v.MapRange(); it.Next(); {
			out = append(out, values(it.Value())...)
		}
		return out
	}
	return []reflect.Value{v}
}

// TestUnsavedSecretsRefused: a workload read back from a result runs only
// once its secrets are given again; the error names the flag that gives
// each.
func TestUnsavedSecretsRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*Workload)
		want string // "" = valid
	}{
		{"secrets given again", func(w *Workload) {
			w.Headers["Authorization"] = "Bearer ${TOKEN}"
			w.Target = targets.Target{Kind: targets.HTTP, Address: "https://bench:other@staging.example.com/mcp"}
		}, ""},
		{"a header value", func(w *Workload) {
			w.Target = targets.Target{Kind: targets.HTTP, Address: "https://staging.example.com/mcp"}
		}, "headers.Authorization: the value is <redacted>, the placeholder a result saves instead of a header's value: give the value again with --header 'Authorization: …'"},
		{"a URL's password", func(w *Workload) { w.Headers = nil }, "target: the URL's password is masked (xxxxx)"},
		{"a secret argument of a stdio server", func(w *Workload) {
			w.Headers = nil
			w.Target = targets.Target{Kind: targets.Stdio, Argv: []string{"env", "MYSQL_PASS=xxxxx", "node", "s.js"}}
		}, "target: the argument MYSQL_PASS=xxxxx is masked, as a result saves it: give the target again with --target, or export MYSQL_PASS"},
		{"a secret flag's value (issue 47, item 18)", func(w *Workload) {
			w.Headers = nil
			w.Target = targets.Target{Kind: targets.Stdio, Argv: []string{"srv", "--token", "xxxxx"}}
		}, "target: the argument xxxxx is masked, as a result saves it: give the target again with --target"},
		{"a password in a URL argument", func(w *Workload) {
			w.Headers = nil
			w.Target = targets.Target{Kind: targets.Stdio, Argv: []string{"npx", "server-postgres", "postgresql://u:xxxxx@h/db"}}
		}, "target: the argument postgresql://u:xxxxx@h/db is masked"},
		{"a URL's secret query parameter", func(w *Workload) {
			w.Headers = nil
			w.Target = targets.Target{Kind: targets.HTTP, Address: "https://staging.example.com/mcp?page=xxxxx&access_token=xxxxx"}
		}, "target: the URL's access_token is masked (xxxxx)"},
		{"a word that only looks like the mask", func(w *Workload) {
			w.Headers = nil
			w.Target = targets.Target{Kind: targets.Stdio, Argv: []string{"srv", "--name", "xxxxx"}}
		}, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, _ := readBack(t, savedFixtures(t)["http, open, fixed attachments"])
			// The fixture sets every key; a valid workload sets some.
			w.Load.Turns, w.Load.Duration, w.Mix, w.Auth = 0, 0, w.Mix[1:], nil
			c.edit(w)
			err := w.Validate()
			switch {
			case c.want == "" && err != nil:
				t.Errorf("Validate = %v, want none", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("Validate = %v, want %q", err, c.want)
			}
		})
	}
	if err := (OAuth{ClientSecret: Redacted}).Unsaved(); err == nil || !strings.Contains(err.Error(), "--oauth-client-secret") {
		t.Errorf("Unsaved of a redacted secret = %v, want the flag named", err)
	}
	if err := (OAuth{ClientSecret: "${SECRET}"}).Unsaved(); err != nil {
		t.Errorf("Unsaved of a secret = %v, want nil", err)
	}
}

// TestDocumented: every key of the saved workload is in docs/results.md,
// so a key added here is documented for the scripts that read results:
// the top level, load and turn as `workload.KEY` rows, each class's keys
// as rows of the mix table (stages and auth are described in their row).
func TestDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/results.md")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(savedFixtures(t)["http, open, fixed attachments"])
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		Top        map[string]json.RawMessage
		Load, Turn map[string]json.RawMessage
		Mix        []map[string]json.RawMessage
	}
	if err := json.Unmarshal(b, &saved.Top); err != nil {
		t.Fatal(err)
	}
	for key, into := range map[string]any{"load": &saved.Load, "turn": &saved.Turn, "mix": &saved.Mix} {
		if err := json.Unmarshal(saved.Top[key], into); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		keys   map[string]json.RawMessage
		format string
	}{
		{saved.Top, "| `workload.%s` |"},
		{saved.Load, "| `workload.load.%s` |"},
		{saved.Turn, "| `workload.turn.%s` |"},
		{saved.Mix[0], "| `%s` |"},
	} {
		for key := range c.keys {
			if key == "load" || key == "turn" {
				continue // their keys are the rows
			}
			if row := strings.Replace(c.format, "%s", key, 1); !strings.Contains(string(doc), row) {
				t.Errorf("%s: docs/results.md has no row %s", key, row)
			}
		}
	}
}
