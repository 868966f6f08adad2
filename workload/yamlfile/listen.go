package yamlfile

import (
	"encoding/json"
	"time"

	"github.com/readbench/readbench/units"
	"github.com/readbench/readbench/workload"
	"gopkg.in/yaml.v3"
)

// The listen and changes sections (docs/workload.md, listen and changes).

func listenSection() section[workload.Listen] {
	return section[workload.Listen]{
		set("listeners", whole[int](1, workload.MaxSessions), func(l *workload.Listen) *int { return &l.Listeners }),
		set("streams", whole[int](1, workload.MaxListenStreams), func(l *workload.Listen) *int { return &l.Streams }),
		set("uris", (*parser).listenURIs, func(l *workload.Listen) *workload.ListenURIs { return &l.URIs }),
		set("list_changed", (*parser).boolean, func(l *workload.Listen) *bool { return &l.ListChanged }),
		set("ramp", (*parser).duration, func(l *workload.Listen) *time.Duration { return &l.Ramp }),
		sub("reread", rereadSection(), func(l *workload.Listen) *workload.Reread { return &l.Reread }),
	}
}

func rereadSection() section[workload.Reread] {
	return section[workload.Reread]{
		{"on", func(p *parser, r *workload.Reread, v *yaml.Node, path string) error {
			on, err := p.boolean(v, path)
			r.Off = err == nil && !on
			return err
		}},
		{"honour_ttl", func(p *parser, r *workload.Reread, v *yaml.Node, path string) error {
			honour, err := p.boolean(v, path)
			r.IgnoreTTL = err == nil && !honour
			return err
		}},
		set("honour_scope", (*parser).boolean, func(r *workload.Reread) *bool { return &r.HonourScope }),
		set("jitter", pointer(parsed("a duration or a distribution of durations", parseJitter)),
			func(r *workload.Reread) **units.Dist { return &r.Jitter }),
	}
}

// parseJitter reads a re-read's jitter: a distribution of durations, or a
// plain duration D as uniform(0, D) ("up to D").
func parseJitter(s string) (units.Dist, error) {
	d, err := units.ParseDurationDist(s)
	if err == nil && d.Kind == units.DistFixed {
		d = units.Dist{Kind: units.DistUniform, A: 0, B: d.A, Unit: units.UnitDuration}
	}
	return d, err
}

func changesSection() section[workload.Changes] {
	return section[workload.Changes]{
		set("rate", parsed("a rate", units.ParseRate), func(c *workload.Changes) *units.Rate { return &c.Rate }),
		set("uris", (*parser).listenURIs, func(c *workload.Changes) *workload.ListenURIs { return &c.URIs }),
		{"via", (*parser).via},
	}
}

// listenURIs reads what listeners subscribe to (or what changes):
// "attached", a list of URIs, or {class: NAME}.
func (p *parser) listenURIs(v *yaml.Node, path string) (workload.ListenURIs, error) {
	switch r := resolve(v); r.Kind {
	case yaml.SequenceNode:
		list, err := p.uris(v, path)
		return workload.ListenURIs{List: list}, err
	case yaml.MappingNode:
		var u workload.ListenURIs
		err := section[workload.ListenURIs]{
			set("class", (*parser).str, func(u *workload.ListenURIs) *string { return &u.Class }),
		}.read(p, v, path, &u)
		if err == nil && u.Class == "" {
			err = p.at(r, path, "want {class: NAME}, naming a class of the mix")
		}
		return u, err
	default:
		s, err := p.str(v, path)
		if err == nil && s != workload.ListenAttached {
			err = p.at(r, path, "want %s, a list of URIs or {class: NAME}, got %q", workload.ListenAttached, s)
		}
		return workload.ListenURIs{Attached: true}, err
	}
}

// via reads how a change is made: "server", or a map naming one of tool
// (with args), http or command.
func (p *parser) via(c *workload.Changes, v *yaml.Node, path string) error {
	if r := resolve(v); r.Kind == yaml.ScalarNode {
		s, err := p.str(v, path)
		if err == nil && s != "server" {
			err = p.at(r, path, "want server (the server's own changes), or a map naming tool, http or command, got %q", s)
		}
		c.Via.Server = err == nil
		return err
	}
	var tool workload.ToolChange
	err := section[workload.ChangeVia]{
		{"tool", func(p *parser, via *workload.ChangeVia, v *yaml.Node, path string) error {
			name, err := p.str(v, path)
			tool.Name = name
			via.Tool = &tool
			return err
		}},
		{"args", func(p *parser, via *workload.ChangeVia, v *yaml.Node, path string) error {
			args, err := p.jsonMap(v, path)
			tool.Args = args
			return err
		}},
		{"http", func(p *parser, via *workload.ChangeVia, v *yaml.Node, path string) error {
			via.HTTP = &workload.HTTPChange{Method: "POST"}
			return httpChangeSection().read(p, v, path, via.HTTP)
		}},
		set("command", stringList(false), func(via *workload.ChangeVia) *[]string { return &via.Command }),
	}.read(p, v, path, &c.Via)
	if err == nil && tool.Args != nil && c.Via.Tool == nil {
		err = p.at(resolve(v), path, "args are a tool's: name it with tool")
	}
	return err
}

func httpChangeSection() section[workload.HTTPChange] {
	return section[workload.HTTPChange]{
		set("method", (*parser).str, func(h *workload.HTTPChange) *string { return &h.Method }),
		set("url", (*parser).str, func(h *workload.HTTPChange) *string { return &h.URL }),
		set("body", (*parser).str, func(h *workload.HTTPChange) *string { return &h.Body }),
		set("headers", (*parser).stringMap, func(h *workload.HTTPChange) *map[string]string { return &h.Headers }),
	}
}

// jsonMap reads a map of any YAML values that have a JSON form (a tool's
// arguments).
func (p *parser) jsonMap(v *yaml.Node, path string) (map[string]any, error) {
	r := resolve(v)
	if r.Kind != yaml.MappingNode {
		return nil, p.at(r, path, "want a map of arguments, got %s", describe(r))
	}
	var out map[string]any
	if err := r.Decode(&out); err != nil {
		return nil, p.at(r, path, "the arguments do not read: %v", err)
	}
	if _, err := json.Marshal(out); err != nil {
		return nil, p.at(r, path, "the arguments have no JSON form (a map key that is not a string?): %v", err)
	}
	return out, nil
}
