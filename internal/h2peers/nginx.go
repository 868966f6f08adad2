package h2peers

import (
	"bytes"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/template"

	"github.com/readbench/readbench/internal/needs"
)

// NginxEverything starts @modelcontextprotocol/server-everything
// (ServerEverything) behind nginx's TLS HTTP/2 (Nginx): the peer a client
// reaches over h2 is nginx, the MCP server behind it speaks HTTP/1.1.
func NginxEverything(t testing.TB) *Peer {
	t.Helper()
	nginxPath(t) // before node is started for nothing
	p := Nginx(t, ServerEverything(t))
	p.Name += " → server-everything (HTTP/1.1)"
	return p
}

// ServerEverything starts @modelcontextprotocol/server-everything, the
// reference MCP server (pinned in peers/), in its Streamable HTTP mode
// (stateful, answers as event streams) with the node on PATH, on
// 127.0.0.1 (peers/loopback.cjs makes its listener bind there), and
// returns its endpoint, http://127.0.0.1:PORT/mcp. It speaks HTTP/1.1
// only (Express on node:http). Its stdout, a line for every request, is
// dropped; its stderr is kept for a failure's message.
func ServerEverything(t testing.TB) string {
	t.Helper()
	node := needs.Tool(t, "node", InstallNode)
	entry := needs.File(t, repoFile("peers", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		"@modelcontextprotocol/server-everything", InstallPeers)
	logFile := filepath.Join(t.TempDir(), "server-everything.log")
	var err error
	for range bindTries {
		port := freePort(t)
		p := start(t, logFile, true, []string{"PORT=" + strconv.Itoa(port)}, node, "--require", repoFile("peers", "loopback.cjs"), entry, "streamableHttp")
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		listening := fmt.Sprintf("listening on port %d", port)
		if p.await(func() bool { return strings.Contains(tail(logFile, 4096), listening) && accepts(addr) }) && !p.hasExited() {
			return "http://" + addr + "/mcp"
		}
		p.stop()
		err = fmt.Errorf("server-everything did not listen on %s", addr)
		if !strings.Contains(tail(logFile, 4096), "cannot bind") {
			break // not a port taken meanwhile: trying another will not help
		}
	}
	t.Fatalf("%v:\n%s", err, tail(logFile, 4096))
	return ""
}

// Nginx starts Debian's nginx as a TLS HTTP/2 front (ALPN h2, a NewCert
// certificate) for upstream, an http:// URL reached over HTTP/1.1, and
// returns the peer: https://127.0.0.1:PORT with upstream's path. nginx
// runs in the foreground as the test's own process (no master, no daemon),
// its configuration, logs, pid file and temporary files in a temporary
// directory of the test; it neither buffers answers (event streams pass
// at once) nor requests, keeps its upstream connections alive, passes
// every header both ways (Mcp-Session-Id included) and waits an hour for
// an upstream answer. Its access.log logs each request's protocol
// ("HTTP/2.0"), buffered (written within 100 ms). nginx's defaults hold
// otherwise: among them, a client connection is ended (GOAWAY) after
// 1,000 requests (keepalive_requests) and carries at most 128 streams at
// once (http2_max_concurrent_streams).
func Nginx(t testing.TB, upstream string) *Peer {
	t.Helper()
	bin := nginxPath(t)
	up, err := url.Parse(upstream)
	if err != nil || up.Scheme != "http" || up.Port() == "" {
		t.Fatalf("nginx upstream %q: want http://HOST:PORT/PATH", upstream)
	}
	cert := NewCert(t)
	dir := t.TempDir()
	version := nginxVersion(t, bin)
	logFile := filepath.Join(dir, "nginx.out")
	for range bindTries {
		port := freePort(t)
		conf := nginxConf{Dir: dir, Port: port, Upstream: up.Host, Cert: cert, ListenHTTP2Flag: !atLeast(version, 1, 25, 1)}
		var b bytes.Buffer
		if err := nginxTemplate.Execute(&b, conf); err != nil {
			t.Fatal(err)
		}
		confFile := filepath.Join(dir, "nginx.conf")
		if err := os.WriteFile(confFile, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		pidFile := filepath.Join(dir, "nginx.pid")
		os.Remove(pidFile)
		// -e: the error log before the configuration is read (else
		// /var/log/nginx/error.log); nginx writes its pid file only once
		// its listener is bound, so a port taken meanwhile is told apart
		// from nginx listening.
		p := start(t, logFile, false, nil, bin, "-p", dir+"/", "-e", filepath.Join(dir, "error.log"), "-c", confFile)
		addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
		pidWritten := func() bool { b, err := os.ReadFile(pidFile); return err == nil && len(bytes.TrimSpace(b)) > 0 }
		if p.await(pidWritten) && !p.hasExited() && accepts(addr) {
			return &Peer{
				Name:   "nginx/" + version + " (TLS h2)",
				URL:    "https://" + addr + up.EscapedPath(),
				CAFile: cert.CertFile, Pool: cert.Pool, Logs: dir,
			}
		}
		p.stop()
		if !strings.Contains(tail(filepath.Join(dir, "error.log"), 4096), "Address already in use") {
			break
		}
	}
	t.Fatalf("nginx did not start:\n%s\n%s", tail(logFile, 2048), tail(filepath.Join(dir, "error.log"), 4096))
	return nil
}

// nginxPath is nginx's program: on PATH, or where Debian puts it
// (/usr/sbin, on no user's PATH but root's).
func nginxPath(t testing.TB) string {
	t.Helper()
	if p, err := exec.LookPath("nginx"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/sbin/nginx"); err == nil {
		return "/usr/sbin/nginx"
	}
	needs.Missing(t, "nginx (neither on PATH nor /usr/sbin/nginx)", InstallNginx)
	return ""
}

var (
	nginxVersions  sync.Map // program -> version ("1.22.1")
	nginxVersionRE = regexp.MustCompile(`nginx/(\d+\.\d+\.\d+)`)
)

// nginxVersion is what `nginx -v` says of bin's version.
func nginxVersion(t testing.TB, bin string) string {
	t.Helper()
	if v, ok := nginxVersions.Load(bin); ok {
		return v.(string)
	}
	out, err := exec.Command(bin, "-v").CombinedOutput()
	m := nginxVersionRE.FindStringSubmatch(string(out))
	if err != nil || m == nil {
		t.Fatalf("%s -v: %v: %s", bin, err, out)
	}
	nginxVersions.Store(bin, m[1])
	return m[1]
}

// atLeast reports whether version (1.22.1) is at least major.minor.patch.
func atLeast(version string, major, minor, patch int) bool {
	var v [3]int
	for i, f := range strings.SplitN(version, ".", 3) {
		v[i], _ = strconv.Atoi(f)
	}
	for i, w := range [3]int{major, minor, patch} {
		if v[i] != w {
			return v[i] > w
		}
	}
	return true
}

// nginxConf is what nginxTemplate is filled with.
type nginxConf struct {
	Dir      string
	Port     int
	Upstream string // HOST:PORT
	Cert     *Cert
	// ListenHTTP2Flag: before nginx 1.25.1 HTTP/2 is a flag of listen
	// ("listen … ssl http2"); since, the http2 directive turns it on.
	ListenHTTP2Flag bool
}

var nginxTemplate = template.Must(template.New("nginx.conf").Parse(`# written by internal/h2peers for one test
daemon off;
master_process off;
worker_processes 1;
error_log {{.Dir}}/error.log notice;
pid {{.Dir}}/nginx.pid;
events { worker_connections 1024; }
http {
	log_format proto '$server_protocol $request_method $request_uri $status $body_bytes_sent upstream=$upstream_addr';
	access_log {{.Dir}}/access.log proto buffer=32k flush=100ms;
	client_body_temp_path {{.Dir}}/client_body;
	proxy_temp_path {{.Dir}}/proxy;
	fastcgi_temp_path {{.Dir}}/fastcgi;
	uwsgi_temp_path {{.Dir}}/uwsgi;
	scgi_temp_path {{.Dir}}/scgi;
	upstream mcp {
		server {{.Upstream}};
		keepalive 32;
	}
	server {
{{- if .ListenHTTP2Flag}}
		listen 127.0.0.1:{{.Port}} ssl http2;
{{- else}}
		listen 127.0.0.1:{{.Port}} ssl;
		http2 on;
{{- end}}
		server_name localhost;
		ssl_certificate {{.Cert.CertFile}};
		ssl_certificate_key {{.Cert.KeyFile}};
		ssl_protocols TLSv1.2 TLSv1.3;
		client_max_body_size 16m;
		location / {
			proxy_pass http://mcp;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_set_header Host $host:$server_port;
			proxy_buffering off;
			proxy_request_buffering off;
			proxy_cache off;
			proxy_read_timeout 1h;
			proxy_send_timeout 1h;
		}
	}
}
`))
