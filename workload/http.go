package workload

import "fmt"

// HTTP is the http section (docs/workload.md, http): the HTTP version the
// run speaks to an HTTP target and, over HTTP/2, how its reads share
// connections. MCP clients reach servers over HTTP/2 at the edge, where
// many reads share one connection and the server's
// SETTINGS_MAX_CONCURRENT_STREAMS, not a pool, bounds what is in flight;
// the zero value is auto with one connection a session.
type HTTP struct {
	// Version is HTTPAuto (""), HTTP11 or HTTP2: auto speaks HTTP/1.1 to
	// an http:// target and what ALPN agrees over https (h2 first); 2
	// speaks h2c with prior knowledge to http:// and h2 to https://.
	Version string
	// Connections is how many HTTP/2 connections the run's sessions share
	// (0: one a session, as hosts have); a read goes on the one with the
	// fewest streams in flight.
	Connections int
	// StreamsPerConnection bounds the streams in flight on one connection
	// (0: as many as the server's SETTINGS_MAX_CONCURRENT_STREAMS allows);
	// a read that finds every connection full waits for a stream.
	StreamsPerConnection int
}

// The HTTP versions of http.version.
const (
	HTTPAuto = "auto"
	HTTP11   = "1.1"
	HTTP2    = "2"
)

// Limits of the http section: far beyond a real client, short of a typo.
const (
	MaxHTTPConnections = 100000
	MaxHTTPStreams     = 1 << 20
)

// IsZero reports an http section that says nothing: auto, the defaults.
func (h HTTP) IsZero() bool { return h == HTTP{} || h == HTTP{Version: HTTPAuto} }

func (w *Workload) checkHTTP(add func(*Error)) {
	h := w.HTTP
	switch h.Version {
	case "", HTTPAuto, HTTP11, HTTP2:
	default:
		add(errorf("http.version", "want 1.1, 2 or auto, got %q", h.Version))
	}
	if h.Connections < 0 || h.Connections > MaxHTTPConnections {
		add(errorf("http.connections", "%d is out of range (1 to %d)", h.Connections, MaxHTTPConnections))
	}
	if h.StreamsPerConnection < 0 || h.StreamsPerConnection > MaxHTTPStreams {
		add(errorf("http.streams_per_connection", "%d is out of range (1 to %d)", h.StreamsPerConnection, MaxHTTPStreams))
	}
	// A stdio or embedded target ignores the section, as it ignores
	// headers: the file's target is often replaced by --target.
	if h.Version == HTTP11 && (h.Connections > 0 || h.StreamsPerConnection > 0) {
		add(errorf("http", "connections and streams_per_connection are HTTP/2's: version 1.1 has a pool of its own per session (load.keep_alive)"))
	}
	if h.Version == HTTP2 && w.Load.NoKeepAlive {
		add(errorf("load.keep_alive", "false asks for a connection per read, which is HTTP/1.1's: http.version 2 multiplexes reads on its connections"))
	}
}

// String is the section as a report's one line says it.
func (h HTTP) String() string {
	v := h.Version
	if v == "" {
		v = HTTPAuto
	}
	s := "version " + v
	if h.Connections > 0 {
		s += fmt.Sprintf(", %d connections", h.Connections)
	}
	if h.StreamsPerConnection > 0 {
		s += fmt.Sprintf(", %d streams a connection", h.StreamsPerConnection)
	}
	return s
}

// MarshalJSON writes the section with its defaults written out (0: the
// default, one connection a session; as many streams as the server
// allows).
func (h HTTP) MarshalJSON() ([]byte, error) {
	var o object
	o.put("version", orAuto(h.Version))
	o.put("connections", h.Connections)
	o.put("streams_per_connection", h.StreamsPerConnection)
	return o.close()
}

func orAuto(v string) string {
	if v == "" {
		return HTTPAuto
	}
	return v
}

func (r savedReader) http() HTTP {
	var h HTTP
	r.value("version", &h.Version)
	r.value("connections", &h.Connections)
	r.value("streams_per_connection", &h.StreamsPerConnection)
	return h
}
