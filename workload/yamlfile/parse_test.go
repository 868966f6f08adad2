package yamlfile

import (
	"errors"
	"github.com/readbench/readbench/workload"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// errorFiles maps each file of testdata/errors to the exact error it must
// give: the place, the key path and the message are all part of the contract.
var errorFiles = map[string]struct {
	line, col int
	key, msg  string
}{
	"typo.yaml":                   {5, 3, "load.rat", `unknown key (did you mean "rate"?)`},
	"changes-without-listen.yaml": {4, 3, "changes", "no listener would be told of a change: add a listen section"},
	"listen-class.yaml":           {4, 9, "listen.uris", `class "md" is not in the mix (the mix has a)`},
	"listen-uris-word.yaml":       {4, 9, "listen.uris", `want attached, a list of URIs or {class: NAME}, got "everything"`},
	"changes-two-ways.yaml":       {7, 5, "changes.via", "one way of making a change, not 2: tool, http, command or server"},
	"changes-no-rate.yaml":        {5, 3, "changes.rate", "how many changes per second readbench makes, such as 5/s"},
	"listen-typo.yaml":            {4, 3, "listen.listners", `unknown key (did you mean "listeners"?)`},
	"listen-jitter.yaml":          {4, 20, "listen.reread.jitter", `duration "4KiB": unknown unit "KiB" (the units are ns, us, µs, ms, s, m and h, as in 1m30s or 500ms)`},
	"listen-scope.yaml":           {4, 26, "listen.reread.honour_scope", `want true or false, got "public"`},
	"http-version.yaml":           {4, 17, "http.version", `want 1.1, 2 or auto, got "3"`},
	"http-connections-h1.yaml":    {4, 7, "http", "connections and streams_per_connection are HTTP/2's: version 1.1 has a pool of its own per session (load.keep_alive)"},
	"http-typo.yaml":              {4, 20, "http.streams_per_conection", `unknown key (did you mean "streams_per_connection"?)`},
	"unknown-top.yaml":            {3, 1, "thresold", `unknown key (did you mean "thresholds"?)`},
	"unknown-class-key.yaml":      {5, 5, "mix[0].wieght", `unknown key (did you mean "weight"?)`},
	"wrong-kind-mix.yaml":         {3, 6, "mix", "want a list, got a map"},
	"wrong-kind-load.yaml":        {2, 3, "load", "want a map, got a list"},
	"wrong-kind-scalar.yaml":      {3, 17, "turn.read_timeout", "want a duration, got a list"},
	"not-a-map.yaml":              {1, 1, "", "a workload file is a map of keys such as name, load and mix; got a list"},
	"bad-size.yaml":               {8, 11, "mix[1].size", `bad size "8kb": unit "kb" is ambiguous: write KiB/MiB/GiB for powers of 1024 or KB/MB/GB for powers of 1000`},
	"bad-rate.yaml":               {2, 9, "load.rate", `bad rate "50/sec": bad period "sec" (want s, min, h, ms or a duration such as 10s)`},
	"zero-rate.yaml":              {2, 9, "load.rate", `bad rate "0/s": must be more than zero`},
	"bad-duration.yaml":           {4, 17, "turn.read_timeout", `duration "5" has no unit: write 5s, 5ms or 5m`},
	"delay-no-unit.yaml":          {4, 64, "mix[0].delay", `duration "12" has no unit: write 12s, 12ms or 12m`},
	"bad-dist.yaml":               {6, 12, "mix[0].delay", `bad distribution "lognormal(40ms, 12ms)": the p99 (12ms) is below the median (40ms)`},
	"bad-dist-func.yaml":          {5, 11, "mix[0].size", `bad distribution "lognorm(8KiB, 200KiB)": unknown function "lognorm" (did you mean "lognormal"?)`},
	"bad-int.yaml":                {3, 10, "load.turns", `want a whole number, got "1e3"`},
	"out-of-range.yaml":           {1, 11, "sessions", "0 is out of range (1 to 100000)"},
	"bad-target.yaml":             {1, 9, "target", `unknown target "ftp://example.com/mcp": want embedded, stdio:CMD ARG..., http(s)://HOST:PORT/PATH, sse+http(s)://HOST:PORT/PATH or range+http(s)://HOST:PORT/PREFIX/`},
	"duplicate-key.yaml":          {4, 3, "load.rate", "duplicate key (first set at line 2)"},
	"duplicate-class.yaml":        {5, 12, "mix[1].class", `duplicate class name "a" (also mix[0])`},
	"empty.yaml":                  {0, 0, "", "empty workload file (want a map with at least load and mix)"},
	"comments-only.yaml":          {0, 0, "", "empty workload file (want a map with at least load and mix)"},
	"multi-doc.yaml":              {4, 1, "", "a second YAML document: a workload file holds one (remove the ---)"},
	// YAML syntax errors at the mistake's line and column (yaml.v3 gave a
	// line alone, often the one before: "syntax.yaml:2", an unclosed "{"
	// on line 2 at line 1).
	"syntax.yaml":                   {4, 4, "", "bad YAML: a value is not allowed here (is this line indented as the lines above it?)"},
	"syntax-bad-indent.yaml":        {3, 2, "", "bad YAML: a value is not allowed here (is this line indented as the lines above it?)"},
	"syntax-tab.yaml":               {2, 1, "", "bad YAML: a tab: YAML indents with spaces, never tabs"},
	"syntax-unclosed-brace.yaml":    {2, 7, "", `bad YAML: this "{" is never closed (at 3:1: ',' or '}' must be specified)`},
	"syntax-unclosed-bracket.yaml":  {2, 6, "", `bad YAML: this "[" is never closed (at 3:1: ',' or ']' must be specified)`},
	"syntax-unclosed-nested.yaml":   {5, 10, "", `bad YAML: this "[" is never closed`},
	"syntax-unclosed-quote.yaml":    {3, 12, "", "bad YAML: this quoted string is never closed (could not find end character of double-quoted text)"},
	"no-rate.yaml":                  {3, 3, "load.rate", "the open model needs a rate of turns, such as 50/s (or stages)"},
	"closed-with-rate.yaml":         {4, 9, "load.rate", "a rate is for the open model; the closed model starts a turn when one ends"},
	"stage-missing-for.yaml":        {4, 7, "load.stages[1].for", "each stage needs a length, such as for: 30s"},
	"stages-all-paused.yaml":        {3, 5, "load.stages", "every stage is a pause (0/s): the run would send nothing"},
	"two-ways.yaml":                 {5, 5, "mix[1]", `class "b" names its resources 2 ways (uri, mime+size): use one of uri, uris, template (with vars) or mime and size`},
	"size-without-mime.yaml":        {3, 5, "mix[0].mime", "size needs mime: the type of the resource, such as text/markdown"},
	"bad-expect.yaml":               {5, 13, "mix[0].expect", `unknown outcome "notfound" (did you mean "not_found"?)`},
	"expect-method-not-found.yaml":  {5, 13, "mix[0].expect", `method_not_found cannot be expected: a server without the method answers every read so, and a run of it measures nothing`},
	"template-vars.yaml":            {6, 7, "mix[0].vars", `the template uses {page} but vars has no page (did you mean "pages"?)`},
	"weighted-attachments-bad.yaml": {3, 24, "turn.attachments.four", `a key is a number of attachments: want a whole number, got "four"`},
	"empty-mix.yaml":                {2, 6, "mix", "want at least one class of attachment"},
	"empty-uri.yaml":                {6, 9, "mix[0].uris[1]", "empty string"},
	"alias-stdio.yaml":              {1, 21, "target.stdio", "want the command and its arguments, as in [./server, --stdio]"},
	"bad-max-answer.yaml":           {4, 15, "turn.max_answer", `bad size "256mb": unit "mb" is ambiguous: write KiB/MiB/GiB for powers of 1024 or KB/MB/GB for powers of 1000`},
	"zero-max-answer.yaml":          {3, 38, "turn.max_answer", "must be more than zero, such as 256MiB"},
	"zero-handshake-timeout.yaml":   {2, 38, "load.handshake_timeout", "must be more than zero, such as 30s"},
	"handshake-typo.yaml":           {4, 3, "load.handshake_timout", `unknown key (did you mean "handshake_timeout"?)`},
	"auth-typo.yaml":                {6, 5, "auth.oauth.client_secert", `unknown key (did you mean "client_secret"?)`},
	"auth-bad-grant.yaml":           {4, 18, "auth.oauth.grant", `want client_credentials or authorization_code, got "password"`},
	"auth-unknown.yaml":             {4, 3, "auth.basic", `unknown key (want one of: oauth)`},
	"min-sessions-too-many.yaml":    {3, 47, "load.min_sessions", "5 is more than the 4 sessions asked for"},
	"zero-session-turns.yaml":       {2, 48, "load.session_turns", "0 is out of range (1 to 2147483647)"},
	"zero-session-lifetime.yaml":    {2, 51, "load.session_lifetime", "must be more than zero, such as 30s"},
	"bad-connect-rate.yaml":         {5, 17, "load.connect_rate", `bad rate "20/sec": bad period "sec" (want s, min, h, ms or a duration such as 10s)`},
}

func TestErrorFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/errors/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatal("no test data", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		want, ok := errorFiles[name]
		if !ok {
			t.Errorf("%s: no expected error in errorFiles", name)
			continue
		}
		_, err := Load(f)
		var e *workload.Error
		if !errors.As(err, &e) {
			t.Errorf("%s: error %v is not an *Error", name, err)
			continue
		}
		got := struct {
			line, col int
			key, msg  string
		}{e.Line, e.Col, e.Key, e.Msg}
		if got != want || e.File != f {
			t.Errorf("%s:\n got %s:%d:%d %q %q\nwant %s:%d:%d %q %q", name, e.File, got.line, got.col, got.key, got.msg, f, want.line, want.col, want.key, want.msg)
		}
	}
	if len(files) != len(errorFiles) {
		t.Errorf("%d files in testdata/errors, %d in errorFiles", len(files), len(errorFiles))
	}
}

func TestLoadMissing(t *testing.T) {
	_, err := Load("testdata/no-such-file.yaml")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load of a missing file: %v, want it to wrap fs.ErrNotExist", err)
	}
}

func TestParseFull(t *testing.T) {
	w, err := Load("testdata/valid/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	check("Name", w.Name, "full")
	check("Description", w.Description, "every key")
	check("Source", w.Source, "testdata/valid/full.yaml")
	check("Target", w.Target.String(), "stdio:./server --stdio 'a b'")
	check("Protocol", w.Protocol, "2025-11-25")
	check("Sessions", w.Sessions, 3)
	check("Seed", w.Seed, int64(-7))
	check("Model", w.Load.Model, workload.ModelOpen)
	check("Rate", w.Load.Rate.PerSecond, 50.0)
	check("Rate.Text", w.Load.Rate.String(), "3000/min")
	check("Arrival", w.Load.Arrival, workload.ArrivalPoisson)
	check("Warmup", w.Load.Warmup, 2*time.Second)
	check("Duration", w.Load.Duration, time.Duration(0)) // turns end the run: no default
	check("Turns", w.Load.Turns, 500)
	check("MaxInFlight", w.Load.MaxInFlight, 64)
	check("Attachments.Fixed", w.Turn.Attachments.Fixed, 0)
	check("Attachments.Max", w.Turn.Attachments.Max(), 10)
	check("Attachments[4]", w.Turn.Attachments.Weighted[4], 40)
	check("ReadTimeout", w.Turn.ReadTimeout, 2*time.Second)
	check("Deadline", w.Turn.Deadline, 800*time.Millisecond)
	check("MaxAnswer", w.Turn.MaxAnswer, int64(64<<20))
	check("len(Mix)", len(w.Mix), 5)
	md := w.Mix[0]
	check("md.Weight", md.Weight, 0.5)
	check("md.MIME (merged)", md.MIME, "text/markdown")
	check("md.Delay (merged)", md.Delay.String(), "uniform(5ms,10ms)")
	check("md.Size", md.Size.String(), "lognormal(8KiB,200KiB)")
	check("md.Entries", md.Entries, 3)
	check("log.Ranged.Chunk", w.Mix[1].Ranged.Chunk, int64(256<<10))
	check("log.Size", w.Mix[1].Size.String(), "12MiB")
	check("pinned.Weight (default)", w.Mix[2].Weight, 1.0)
	check("pinned.Expect", w.Mix[2].Expect, "ok")
	check("list.URIs", strings.Join(w.Mix[3].URIs, " "), "docs://a docs://b")
	page := w.Mix[4]
	check("page.Template", page.Template, "docs://{team}/{+path}")
	check("page.Vars.team", strings.Join(page.Vars["team"], ","), "platform,web ops")
	check("page.Vars.path (scalar)", strings.Join(page.Vars["path"], ","), "guides/on-call")
	check("Headers.Authorization", w.Headers["Authorization"], "Bearer ${READBENCH_TOKEN}") // not expanded
	check("Headers.X-Trace", w.Headers["X-Trace"], "1")
	check("AllowHosts", strings.Join(w.AllowHosts, " "), "staging.example.com 10.0.0.5:8080")
	if len(w.Thresholds) != 2 {
		t.Fatalf("Thresholds = %+v; want two", w.Thresholds)
	}
	check("Thresholds[0] (sorted by metric)", w.Thresholds[0].Metric+": "+w.Thresholds[0].Bound, "errors: <1%")
	check("Thresholds[1]", w.Thresholds[1].Metric+": "+w.Thresholds[1].Bound, "turn.p99: <800ms")
	check("Thresholds[1].Parsed", w.Thresholds[1].Parsed.Text, "turn.p99<800ms")
}

func TestParseAuth(t *testing.T) {
	w, err := Load("testdata/valid/auth.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if w.Auth == nil || w.Auth.OAuth == nil {
		t.Fatalf("Auth = %+v; want the oauth block", w.Auth)
	}
	want := workload.OAuth{Grant: "client_credentials", ClientID: "loadtest", ClientSecret: "${SECRET}", // not expanded
		Scope: "mcp:read mcp:write", TokenEndpointAuth: "client_secret_post",
		TokenParams: map[string][]string{"audience": {"https://api.example.com"}, "resource": {"urn:a", "urn:b"}}}
	if !reflect.DeepEqual(*w.Auth.OAuth, want) {
		t.Errorf("OAuth = %+v\nwant %+v", *w.Auth.OAuth, want)
	}
	if w, _ := Load("testdata/valid/minimal.yaml"); w.Listen != nil || w.Changes != nil {
		t.Errorf("minimal.yaml: listen %+v, changes %+v; want none", w.Listen, w.Changes)
	}
	if w, _ := Load("testdata/valid/minimal.yaml"); w.Auth != nil {
		t.Errorf("no auth block: Auth = %+v, want nil", w.Auth)
	}
}

func TestParseDefaults(t *testing.T) {
	w, err := Load("testdata/valid/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := []any{w.Target.Kind, w.Protocol, w.Sessions, w.Seed, w.Load.Model, w.Load.Arrival,
		w.Load.MaxInFlight, w.Turn.Attachments.Fixed, w.Turn.ReadTimeout, w.Turn.Deadline,
		w.Load.Duration, w.Mix[0].Weight}
	want := []any{targets.Embedded, "auto", 1, int64(1), "open", "constant",
		1000, 1, 5 * time.Second, time.Duration(0), 10 * time.Second, 1.0}
	if !slices.Equal(got, want) {
		t.Errorf("defaults:\n got %v\nwant %v", got, want)
	}
}

func TestParseValidFiles(t *testing.T) {
	files, _ := filepath.Glob("testdata/valid/*.yaml")
	for _, f := range files {
		w, err := Load(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if w.Validate() != nil {
			t.Errorf("%s: parsed but does not validate", f)
		}
	}
	w, _ := Load("testdata/valid/stages.yaml")
	if w.Load.Length() != 40*time.Second || !w.Load.Stages[1].Ramp || w.Load.Duration != 0 {
		t.Errorf("stages: %+v", w.Load)
	}
	w, _ = Load("testdata/valid/stages-pause.yaml")
	if w == nil || w.Load.Stages[0].Rate.PerSecond != 1.0/360 || w.Load.Stages[1].Rate.PerSecond != 0 || w.Load.Stages[2].Rate.PerSecond != 5.5e-4 {
		t.Errorf("stages-pause: %+v", w)
	}
	w, _ = Load("testdata/valid/closed.yaml")
	if w.Load.Concurrency != 16 || w.Target.Kind != targets.SSE || w.Load.Length() != time.Minute {
		t.Errorf("closed: %+v %v", w.Load, w.Target)
	}
}

// Hostile YAML (alias loops, merge cycles, deep nesting) must fail cleanly.
func TestParseHostile(t *testing.T) {
	for _, in := range []string{
		"a: &x [*x]\nload: *x\n",
		"load: &x {<<: *x}\nmix: []\n",
		"mix: &x [*x]\n",
		"load: {rate: 5/s}\nmix: [{class: a, uri: docs://a, vars: &v {a: *v}}]\n",
		strings.Repeat("[", 5000),
		"? [a]\n: b\n",
		"load: {rate: 5/s, <<: [1]}\nmix: [{class: a, uri: u}]\n",
		"\"\\xff\": 1\n",
		"load: {rate: !!binary aGVsbG8=}\n",
	} {
		w, err := Parse("h.yaml", []byte(in))
		var e *workload.Error
		if w != nil || !errors.As(err, &e) {
			t.Errorf("Parse(%q) = %v, %v; want an *Error", in, w, err)
		}
	}
}

// Validate after an override: errors carry the key, not a place in the file.
func TestValidateAfterOverride(t *testing.T) {
	w, err := Load("testdata/valid/minimal.yaml")
	if err != nil {
		t.Fatal(err)
	}
	w.Load.Model = workload.ModelClosed
	err = w.Validate()
	var e *workload.Error
	if !errors.As(err, &e) || e.Key != "load.concurrency" || e.Line != 0 || e.Col != 0 {
		t.Errorf("Validate() = %#v", err)
	}
	w.Load.Concurrency, w.Load.Rate = 4, units.Rate{}
	if err := w.Validate(); err != nil {
		t.Errorf("Validate() = %v", err)
	}
	w.Target = targets.Target{Kind: targets.HTTP, Address: "nope"}
	if err := w.Validate(); err == nil || !strings.HasPrefix(err.Error(), "target: ") {
		t.Errorf("Validate() with a bad target = %v", err)
	}
}

// An alias bomb is refused quickly instead of being expanded.
func TestParseAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("x-list: &l [")
	for i := range 20000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("docs://a")
	}
	b.WriteString("]\nx-class: &c {class: a, uris: *l}\nload: {rate: 5/s}\nmix: [")
	for i := range 3000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("*c")
	}
	b.WriteString("]\n")
	start := time.Now()
	_, err := Parse("bomb.yaml", []byte(b.String()))
	if err == nil || !strings.Contains(err.Error(), "too many aliases") {
		t.Errorf("Parse of an alias bomb: %v", err)
	}
	// Expanded, this is 60 million URIs; refused, a fraction of a second
	// (the bound is loose for loaded test machines).
	if el := time.Since(start); el > 30*time.Second {
		t.Errorf("Parse of an alias bomb took %v", el)
	}
}

// TestParseHandshakeTimeout: load.handshake_timeout is read as the limit
// on opening each session; unset, it is 0 (the client's default, or the
// flag's).
func TestParseHandshakeTimeout(t *testing.T) {
	for _, c := range []struct {
		load string
		want time.Duration
	}{
		{"{rate: 5/s, handshake_timeout: 300ms}", 300 * time.Millisecond},
		{"{rate: 5/s, handshake_timeout: 2m}", 2 * time.Minute},
		{"{rate: 5/s}", 0},
	} {
		w, err := Parse("w.yaml", []byte("name: h\nload: "+c.load+"\nmix: [{class: a, uri: docs://a}]\n"))
		if err != nil {
			t.Fatalf("%s: %v", c.load, err)
		}
		if w.Load.HandshakeTimeout != c.want {
			t.Errorf("%s: handshake timeout %v, want %v", c.load, w.Load.HandshakeTimeout, c.want)
		}
	}
}

// TestParseSessionKeys: connect pacing, the sessions that must connect
// and churn are read from load; unset, each is 0 (as fast as allowed,
// all sessions, no churn).
func TestParseSessionKeys(t *testing.T) {
	for _, c := range []struct {
		load string
		want workload.Load
	}{
		{"{rate: 5/s, duration: 1s}", workload.Load{}},
		{"{rate: 5/s, duration: 1s, connect_rate: 20/s, min_sessions: 3}", workload.Load{ConnectRate: units.Rate{PerSecond: 20}, MinSessions: 3}},
		{"{rate: 5/s, duration: 1s, session_turns: 20}", workload.Load{SessionTurns: 20}},
		{"{rate: 5/s, duration: 1s, session_lifetime: 1m}", workload.Load{SessionLifetime: time.Minute}},
	} {
		w, err := Parse("w.yaml", []byte("name: s\nsessions: 4\nload: "+c.load+"\nmix: [{class: a, uri: docs://a}]\n"))
		if err != nil {
			t.Fatalf("%s: %v", c.load, err)
		}
		l := w.Load
		got := workload.Load{ConnectRate: units.Rate{PerSecond: l.ConnectRate.PerSecond}, MinSessions: l.MinSessions, SessionTurns: l.SessionTurns, SessionLifetime: l.SessionLifetime}
		if got.ConnectRate != c.want.ConnectRate || got.MinSessions != c.want.MinSessions || got.SessionTurns != c.want.SessionTurns || got.SessionLifetime != c.want.SessionLifetime {
			t.Errorf("%s: %+v, want %+v", c.load, got, c.want)
		}
		if l.Churn() != (c.want.SessionTurns > 0 || c.want.SessionLifetime > 0) {
			t.Errorf("%s: Churn() = %v", c.load, l.Churn())
		}
	}
}

// TestParseKeepAlive: load.keep_alive is a boolean defaulting to true
// (a real client's pool); false asks for a connection per read, and
// anything else is an error at its line and column.
func TestParseKeepAlive(t *testing.T) {
	doc := func(v string) []byte {
		return []byte("name: k\nload: {rate: 1/s, duration: 1s" + v + "}\nmix:\n  - {class: c, uri: \"docs://a\"}\n")
	}
	for _, c := range []struct {
		v      string
		noKeep bool
	}{{"", false}, {", keep_alive: true", false}, {", keep_alive: false", true}} {
		w, err := Parse("k.yaml", doc(c.v))
		if err != nil {
			t.Fatalf("%q: %v", c.v, err)
		}
		if w.Load.NoKeepAlive != c.noKeep {
			t.Errorf("%q: NoKeepAlive %v, want %v", c.v, w.Load.NoKeepAlive, c.noKeep)
		}
	}
	_, err := Parse("k.yaml", doc(", keep_alive: sometimes"))
	if err == nil || !strings.Contains(err.Error(), "k.yaml:2:") || !strings.Contains(err.Error(), "load.keep_alive") {
		t.Errorf("keep_alive: sometimes: %v, want an error at k.yaml:2 naming load.keep_alive", err)
	}
}

// TestListenSections: the listen and changes sections read as the file
// writes them, defaults filled in (docs/workload.md, listen and changes).
func TestListenSections(t *testing.T) {
	w, err := Load("testdata/valid/listen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	jitter := units.Dist{Kind: units.DistUniform, A: 0, B: float64(200 * time.Millisecond), Unit: units.UnitDuration}
	wantListen := &workload.Listen{Listeners: 50, Streams: 2, URIs: workload.ListenURIs{Class: "md"}, ListChanged: true,
		Ramp: 5 * time.Second, Reread: workload.Reread{IgnoreTTL: true, HonourScope: true, Jitter: &jitter}}
	if !reflect.DeepEqual(w.Listen, wantListen) {
		t.Errorf("listen %+v, want %+v", *w.Listen, *wantListen)
	}
	c := w.Changes
	if c == nil || c.Rate.PerSecond != 5 || !c.URIs.Attached || c.Via.Form() != "tool" || c.Via.Tool.Name != "touch" ||
		!reflect.DeepEqual(c.Via.Tool.Args, map[string]any{"uri": workload.ChangeURI, "note": "load test"}) {
		t.Errorf("changes %+v (via %+v)", c, c.Via.Tool)
	}
	w, err = Load("testdata/valid/listen-server.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if l := *w.Listen; l.Listeners != 10 || l.Streams != 1 || !l.URIs.Attached || l.Reread.Off || l.Reread.IgnoreTTL || l.Reread.HonourScope || l.Reread.Jitter != nil {
		t.Errorf("listen defaults %+v", l)
	}
	if c := w.Changes; c.Via.Form() != "server" || c.Rate.PerSecond != 0 {
		t.Errorf("changes %+v", *c)
	}
}
