package workload

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/readbench/readbench/targets"
	"github.com/readbench/readbench/units"
)

// The saved form of the listen and changes sections (savedjson.go says
// the rules): present only in a workload that has them, every key of a
// present section written out, secrets redacted (an HTTP change's header
// values, a password in its URL or in its command's words).

// MarshalJSON writes the listen section with its defaults written out.
func (l Listen) MarshalJSON() ([]byte, error) {
	jitter := ""
	if l.Reread.Jitter != nil {
		jitter = l.Reread.Jitter.String()
	}
	var o object
	o.put("listeners", l.Listeners)
	o.put("streams", l.Streams)
	o.put("uris", l.URIs)
	o.put("list_changed", l.ListChanged)
	o.put("ramp", units.Duration(l.Ramp))
	var r object
	r.put("on", !l.Reread.Off)
	r.put("honour_ttl", !l.Reread.IgnoreTTL)
	r.put("honour_scope", l.Reread.HonourScope)
	r.put("jitter", jitter)
	reread, err := r.close()
	if err != nil {
		return nil, err
	}
	o.put("reread", json.RawMessage(reread))
	return o.close()
}

// MarshalJSON writes a selection of URIs as the file writes it:
// "attached", a list, or {"class": NAME}.
func (u ListenURIs) MarshalJSON() ([]byte, error) {
	switch {
	case u.Class != "":
		return json.Marshal(map[string]string{"class": u.Class})
	case len(u.List) > 0:
		return json.Marshal(u.List)
	}
	return json.Marshal(ListenAttached)
}

// MarshalJSON writes the changes section: the rate as text and number,
// the URIs that change, and how a change is made, without its secrets.
func (c Changes) MarshalJSON() ([]byte, error) {
	var o object
	o.putRate("rate", c.Rate)
	o.put("uris", c.URIs)
	var via object
	switch v := c.Via; {
	case v.Tool != nil:
		via.put("tool", v.Tool.Name)
		via.put("args", orEmptyMap(v.Tool.Args))
	case v.HTTP != nil:
		headers := make(map[string]string, len(v.HTTP.Headers))
		for k := range v.HTTP.Headers {
			headers[k] = Redacted
		}
		var h object
		h.put("method", v.HTTP.Method)
		h.put("url", targets.RedactSecrets(v.HTTP.URL))
		h.put("body", v.HTTP.Body)
		h.put("headers", headers)
		b, err := h.close()
		if err != nil {
			return nil, err
		}
		via.put("http", json.RawMessage(b))
	case len(v.Command) > 0:
		words := make([]string, len(v.Command))
		for i, w := range v.Command {
			words[i] = targets.RedactSecrets(w)
		}
		via.put("command", words)
	default:
		o.put("via", "server")
		return o.close()
	}
	b, err := via.close()
	if err != nil {
		return nil, err
	}
	o.put("via", json.RawMessage(b))
	return o.close()
}

// listen reads a saved listen section.
func (r savedReader) listen() *Listen {
	l := &Listen{URIs: r.listenURIs("uris"), Ramp: r.duration("ramp")}
	r.value("listeners", &l.Listeners)
	r.value("streams", &l.Streams)
	r.value("list_changed", &l.ListChanged)
	if rr, ok := r.object("reread"); ok {
		on, honour := true, true
		rr.value("on", &on)
		rr.value("honour_ttl", &honour)
		rr.value("honour_scope", &l.Reread.HonourScope)
		l.Reread.Off, l.Reread.IgnoreTTL = !on, !honour
		if d, ok := parsed(rr, "jitter", units.ParseDurationDist); ok {
			l.Reread.Jitter = &d
		}
	}
	return l
}

// listenURIs reads a saved selection of URIs: "attached", a list, or
// {"class": NAME}; absent is attached.
func (r savedReader) listenURIs(key string) ListenURIs {
	raw := r.raw(key)
	if raw == nil {
		return ListenURIs{Attached: true}
	}
	var s string
	var list []string
	var class struct{ Class string }
	switch {
	case json.Unmarshal(raw, &s) == nil && s == ListenAttached:
		return ListenURIs{Attached: true}
	case json.Unmarshal(raw, &list) == nil:
		return ListenURIs{List: list}
	case json.Unmarshal(raw, &class) == nil && class.Class != "":
		return ListenURIs{Class: class.Class}
	}
	r.fail(r.at(key), fmt.Errorf("want %q, a list of URIs or {\"class\": NAME}, got %s", ListenAttached, jsonKind(raw)))
	return ListenURIs{Attached: true}
}

// changes reads a saved changes section; a header value comes back
// Redacted, which Validate refuses until it is given again.
func (r savedReader) changes() *Changes {
	c := &Changes{Rate: r.rate("rate"), URIs: r.listenURIs("uris")}
	if raw := r.raw("via"); len(raw) > 0 && raw[0] == '"' {
		if r.text("via") != "server" {
			r.fail(r.at("via"), fmt.Errorf("want \"server\" or an object naming tool, http or command, got %s", raw))
		}
		c.Via.Server = true
		return c
	}
	v, ok := r.object("via")
	if !ok {
		return c
	}
	if name := v.text("tool"); name != "" {
		c.Via.Tool = &ToolChange{Name: name}
		if v.value("args", &c.Via.Tool.Args); len(c.Via.Tool.Args) == 0 {
			c.Via.Tool.Args = nil
		}
	}
	if h, ok := v.object("http"); ok {
		c.Via.HTTP = &HTTPChange{Method: h.text("method"), URL: h.text("url"), Body: h.text("body")}
		if h.value("headers", &c.Via.HTTP.Headers); len(c.Via.HTTP.Headers) == 0 {
			c.Via.HTTP.Headers = nil
		}
		for k := range c.Via.HTTP.Headers {
			c.Via.HTTP.Headers[k] = Redacted // a value is never saved, whatever a hand-edited file says
		}
	}
	if v.value("command", &c.Via.Command); len(c.Via.Command) == 0 {
		c.Via.Command = nil
	}
	return c
}

// checkUnsavedChange refuses an HTTP change header still Redacted, as a
// workload read back from a result has it.
func (w *Workload) checkUnsavedChange(add func(*Error)) {
	if w.Changes == nil || w.Changes.Via.HTTP == nil {
		return
	}
	h := w.Changes.Via.HTTP.Headers
	for _, name := range slices.Sorted(maps.Keys(h)) {
		if h[name] == Redacted {
			add(errorf("changes.via.http.headers."+name, "the value is %s, the placeholder a result saves instead of a header's value: give the workload file again", Redacted))
		}
	}
}
