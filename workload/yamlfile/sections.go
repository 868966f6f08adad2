package yamlfile

import (
	"github.com/readbench/readbench/workload"
	"math"
	"slices"
	"time"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
	"gopkg.in/yaml.v3"
)

// Each map of the file (docs/workload.md) is a section: the table of its
// known keys, each with how its value is read. The table is the one list
// of a map's keys: an unknown key is answered from it ("did you mean"), in
// its order, and a known one is read by its entry.

// field is one key of a section and how its value is read into a T; path
// is the value's key path ("load.rate").
type field[T any] struct {
	key  string
	read func(p *parser, into *T, v *yaml.Node, path string) error
}

// section is the keys of one map of the file, in the order the reference
// lists them.
type section[T any] []field[T]

// keys is the section's keys, in order.
func (s section[T]) keys() []string {
	keys := make([]string, len(s))
	for i, f := range s {
		keys[i] = f.key
	}
	return keys
}

// read walks map node n at path into `into` (see parser.fields): each key's
// mistakes are recorded and the next key is read; the error is for n
// itself, when it is not a map.
func (s section[T]) read(p *parser, n *yaml.Node, path string, into *T) error {
	keys := s.keys()
	return p.fields(n, path, keys, func(k string, v *yaml.Node) error {
		f := s[slices.Index(keys, k)]
		return f.read(p, into, v, workload.JoinKey(path, k))
	})
}

// reader reads one value at a key path.
type reader[V any] func(p *parser, v *yaml.Node, path string) (V, error)

// set is the field key whose value read reads and stores at at(into); a
// value that does not read leaves the default in place.
func set[T, V any](key string, read reader[V], at func(*T) *V) field[T] {
	return field[T]{key, func(p *parser, into *T, v *yaml.Node, path string) error {
		val, err := read(p, v, path)
		if err == nil {
			*at(into) = val
		}
		return err
	}}
}

// sub is the field key whose value is the map of section s, read into
// at(into).
func sub[T, S any](key string, s section[S], at func(*T) *S) field[T] {
	return field[T]{key, func(p *parser, into *T, v *yaml.Node, path string) error {
		return s.read(p, v, path, at(into))
	}}
}

// whole reads a whole number in [lo, hi] (parser.integer) as an I.
func whole[I int | int64](lo, hi int64) reader[I] {
	return func(p *parser, v *yaml.Node, path string) (I, error) {
		n, err := p.integer(v, path, lo, hi)
		return I(n), err
	}
}

// parsed reads a scalar with parse, such as units.ParseRate (see convert).
func parsed[V any](want string, parse func(string) (V, error)) reader[V] {
	return func(p *parser, v *yaml.Node, path string) (V, error) {
		return convert(p, v, path, want, parse)
	}
}

// pointer reads what read reads, and points to it (an optional key).
func pointer[V any](read reader[V]) reader[*V] {
	return func(p *parser, v *yaml.Node, path string) (*V, error) {
		val, err := read(p, v, path)
		return &val, err
	}
}

// positive reads a size of more than zero.
func positive(p *parser, v *yaml.Node, path string) (int64, error) {
	n, err := convert(p, v, path, "a size", units.ParseSize)
	if err == nil && n <= 0 {
		err = p.at(resolve(v), path, "must be more than zero, such as 256MiB")
	}
	return n, err
}

// share reads a number in [0, 1].
func share(p *parser, v *yaml.Node, path string) (float64, error) {
	f, err := p.number(v, path)
	if err == nil && (f < 0 || f > 1) {
		err = p.at(resolve(v), path, "must be a share from 0 to 1, such as 0.1, got %v", f)
	}
	return f, err
}

// positiveDuration reads a duration that must be more than zero: a limit
// of 0 would fail every session before it could answer.
func positiveDuration(p *parser, v *yaml.Node, path string) (time.Duration, error) {
	d, err := p.duration(v, path)
	if err == nil && d <= 0 {
		err = p.at(resolve(v), path, "must be more than zero, such as 30s")
	}
	return d, err
}

// stringList reads a list of strings; allowEmpty lets an item be "".
func stringList(allowEmpty bool) reader[[]string] {
	return func(p *parser, v *yaml.Node, path string) ([]string, error) {
		return p.strs(v, path, allowEmpty)
	}
}

func topSection() section[workload.Workload] {
	return section[workload.Workload]{
		set("name", (*parser).str, func(w *workload.Workload) *string { return &w.Name }),
		set("description", (*parser).str, func(w *workload.Workload) *string { return &w.Description }),
		set("target", (*parser).target, func(w *workload.Workload) *targets.Target { return &w.Target }),
		set("protocol", (*parser).str, func(w *workload.Workload) *string { return &w.Protocol }),
		set("sessions", whole[int](1, workload.MaxSessions), func(w *workload.Workload) *int { return &w.Sessions }),
		set("seed", whole[int64](math.MinInt64, math.MaxInt64), func(w *workload.Workload) *int64 { return &w.Seed }),
		sub("load", loadSection(), func(w *workload.Workload) *workload.Load { return &w.Load }),
		sub("turn", turnSection(), func(w *workload.Workload) *workload.Turn { return &w.Turn }),
		set("mix", (*parser).mix, func(w *workload.Workload) *[]workload.Class { return &w.Mix }),
		set("headers", (*parser).stringMap, func(w *workload.Workload) *map[string]string { return &w.Headers }),
		set("allow_hosts", stringList(false), func(w *workload.Workload) *[]string { return &w.AllowHosts }),
		set("thresholds", (*parser).thresholds, func(w *workload.Workload) *[]workload.Threshold { return &w.Thresholds }),
		{"auth", func(p *parser, w *workload.Workload, v *yaml.Node, path string) error {
			w.Auth = &workload.Auth{}
			return authSection().read(p, v, path, w.Auth)
		}},
		{"listen", func(p *parser, w *workload.Workload, v *yaml.Node, path string) error {
			w.Listen = workload.DefaultListen()
			return listenSection().read(p, v, path, w.Listen)
		}},
		{"changes", func(p *parser, w *workload.Workload, v *yaml.Node, path string) error {
			w.Changes = &workload.Changes{URIs: workload.ListenURIs{Attached: true}}
			return changesSection().read(p, v, path, w.Changes)
		}},
		sub("http", httpSection(), func(w *workload.Workload) *workload.HTTP { return &w.HTTP }),
	}
}

func loadSection() section[workload.Load] {
	return section[workload.Load]{
		set("model", (*parser).str, func(l *workload.Load) *string { return &l.Model }),
		set("rate", parsed("a rate", units.ParseRate), func(l *workload.Load) *units.Rate { return &l.Rate }),
		set("concurrency", whole[int](1, workload.MaxInFlight), func(l *workload.Load) *int { return &l.Concurrency }),
		set("arrival", (*parser).str, func(l *workload.Load) *string { return &l.Arrival }),
		set("warmup", (*parser).duration, func(l *workload.Load) *time.Duration { return &l.Warmup }),
		set("duration", (*parser).duration, func(l *workload.Load) *time.Duration { return &l.Duration }),
		set("turns", whole[int](1, math.MaxInt32), func(l *workload.Load) *int { return &l.Turns }),
		set("stages", (*parser).stages, func(l *workload.Load) *[]workload.Stage { return &l.Stages }),
		set("max_in_flight", whole[int](1, workload.MaxInFlight), func(l *workload.Load) *int { return &l.MaxInFlight }),
		set("handshake_timeout", positiveDuration, func(l *workload.Load) *time.Duration { return &l.HandshakeTimeout }),
		set("connect_rate", parsed("a rate", units.ParseRate), func(l *workload.Load) *units.Rate { return &l.ConnectRate }),
		set("min_sessions", whole[int](1, workload.MaxSessions), func(l *workload.Load) *int { return &l.MinSessions }),
		set("session_turns", whole[int](1, math.MaxInt32), func(l *workload.Load) *int { return &l.SessionTurns }),
		set("session_lifetime", positiveDuration, func(l *workload.Load) *time.Duration { return &l.SessionLifetime }),
		set("trace_sample", pointer(share), func(l *workload.Load) **float64 { return &l.TraceSample }),
		{"keep_alive", func(p *parser, l *workload.Load, v *yaml.Node, path string) error {
			keep, err := p.boolean(v, path)
			l.NoKeepAlive = err == nil && !keep
			return err
		}},
	}
}

func stageSection() section[workload.Stage] {
	return section[workload.Stage]{
		set("rate", parsed("a rate", units.ParseStageRate), func(s *workload.Stage) *units.Rate { return &s.Rate }), // 0/s: a pause
		set("for", (*parser).duration, func(s *workload.Stage) *time.Duration { return &s.For }),
		set("ramp", (*parser).boolean, func(s *workload.Stage) *bool { return &s.Ramp }),
	}
}

func turnSection() section[workload.Turn] {
	return section[workload.Turn]{
		set("attachments", (*parser).attachments, func(t *workload.Turn) *workload.Attachments { return &t.Attachments }),
		set("read_timeout", (*parser).duration, func(t *workload.Turn) *time.Duration { return &t.ReadTimeout }),
		set("deadline", (*parser).duration, func(t *workload.Turn) *time.Duration { return &t.Deadline }),
		set("max_answer", positive, func(t *workload.Turn) *int64 { return &t.MaxAnswer }),
	}
}

func classSection() section[workload.Class] {
	return section[workload.Class]{
		set("class", (*parser).str, func(c *workload.Class) *string { return &c.Name }),
		set("weight", (*parser).number, func(c *workload.Class) *float64 { return &c.Weight }),
		set("uri", (*parser).str, func(c *workload.Class) *string { return &c.URI }),
		set("uris", (*parser).uris, func(c *workload.Class) *[]string { return &c.URIs }),
		set("template", (*parser).str, func(c *workload.Class) *string { return &c.Template }),
		set("vars", (*parser).vars, func(c *workload.Class) *map[string][]string { return &c.Vars }),
		set("mime", (*parser).str, func(c *workload.Class) *string { return &c.MIME }),
		{"size", (*parser).size},
		set("delay", pointer(parsed("a duration", units.ParseDurationDist)), func(c *workload.Class) **units.Dist { return &c.Delay }),
		set("entries", whole[int](0, workload.MaxEntries), func(c *workload.Class) *int { return &c.Entries }),
		set("expect", (*parser).str, func(c *workload.Class) *string { return &c.Expect }),
		{"ranged", func(p *parser, c *workload.Class, v *yaml.Node, path string) error {
			c.Ranged = &workload.Ranged{}
			return rangedSection().read(p, v, path, c.Ranged)
		}},
	}
}

func rangedSection() section[workload.Ranged] {
	return section[workload.Ranged]{
		set("chunk", parsed("a size", units.ParseSize), func(r *workload.Ranged) *int64 { return &r.Chunk }),
	}
}

func authSection() section[workload.Auth] {
	return section[workload.Auth]{
		{"oauth", func(p *parser, a *workload.Auth, v *yaml.Node, path string) error {
			a.OAuth = &workload.OAuth{}
			return oauthSection().read(p, v, path, a.OAuth)
		}},
	}
}

func oauthSection() section[workload.OAuth] {
	return section[workload.OAuth]{
		set("grant", (*parser).str, func(o *workload.OAuth) *string { return &o.Grant }),
		set("client_id", (*parser).str, func(o *workload.OAuth) *string { return &o.ClientID }),
		set("client_secret", (*parser).str, func(o *workload.OAuth) *string { return &o.ClientSecret }),
		set("scope", (*parser).str, func(o *workload.OAuth) *string { return &o.Scope }),
		set("private_key", (*parser).str, func(o *workload.OAuth) *string { return &o.PrivateKey }),
		set("token_endpoint_auth", (*parser).str, func(o *workload.OAuth) *string { return &o.TokenEndpointAuth }),
		set("token_params", (*parser).vars, func(o *workload.OAuth) *map[string][]string { return &o.TokenParams }),
	}
}

// httpSection is the http section (docs/workload.md, http).
func httpSection() section[workload.HTTP] {
	return section[workload.HTTP]{
		set("version", (*parser).str, func(h *workload.HTTP) *string { return &h.Version }),
		set("connections", whole[int](1, workload.MaxHTTPConnections), func(h *workload.HTTP) *int { return &h.Connections }),
		set("streams_per_connection", whole[int](1, workload.MaxHTTPStreams), func(h *workload.HTTP) *int { return &h.StreamsPerConnection }),
	}
}
