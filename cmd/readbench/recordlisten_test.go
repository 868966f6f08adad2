package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/readbench/readbench/internal/testproc"
)

// TestRecordListenAddress: a bare :PORT binds loopback only (net.Listen
// alone binds every interface, silently), a loopback host is bound as
// given, and a host that is not loopback is bound as given with a
// warning naming what it exposes. No address here is bound.
func TestRecordListenAddress(t *testing.T) {
	for _, tc := range []struct {
		addr, bind, warn, err string
	}{
		{addr: ":9000", bind: "127.0.0.1:9000"},
		{addr: "127.0.0.1:9000", bind: "127.0.0.1:9000"},
		{addr: "localhost:9000", bind: "localhost:9000"},
		{addr: "[::1]:9000", bind: "[::1]:9000"},
		{addr: "0.0.0.0:9000", bind: "0.0.0.0:9000", warn: "binds every network interface"},
		{addr: "[::]:9000", bind: "[::]:9000", warn: "binds every network interface"},
		{addr: "192.0.2.7:9000", bind: "192.0.2.7:9000", warn: "binds the interfaces of 192.0.2.7"},
		{addr: "9000", err: "want HOST:PORT"},
		{addr: "127.0.0.1:", err: "want HOST:PORT"},
	} {
		bind, warn, err := listenAddress(tc.addr)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want one saying %q", tc.addr, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.addr, err)
		case bind != tc.bind:
			t.Errorf("%s binds %s, want %s", tc.addr, bind, tc.bind)
		case tc.warn == "" && warn != "":
			t.Errorf("%s: warning %q, want none", tc.addr, warn)
		case tc.warn != "" && !strings.Contains(warn, tc.warn):
			t.Errorf("%s: warning %q, want one saying %q", tc.addr, warn, tc.warn)
		}
	}
}

// TestRecordFailedListenLeavesNoFile: a --listen that cannot be bound
// (the port taken) or an upstream the proxy cannot serve fails before
// the recording is created, so the retry with the same --out is not
// refused as "exists"; the retry records.
func TestRecordFailedListenLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	for _, tc := range []struct {
		name string
		args []string
		code int
	}{
		{"port taken", []string{"--listen", taken.Addr().String(), "--upstream", "http://127.0.0.1:1/mcp"}, exitFail},
		{"no host and port", []string{"--listen", "9000", "--upstream", "http://127.0.0.1:1/mcp"}, exitUsage},
		{"stdio upstream over HTTP", []string{"--listen", "127.0.0.1:0", "--upstream", "stdio:cat"}, exitUsage},
		{"stdio upstream not found", []string{"--stdio", "--upstream", "stdio:readbench-no-such-command"}, exitFail},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := readbench(t, dir, append([]string{"record", "--out", "t.jsonl"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d:\n%s", code, tc.code, stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "t.jsonl")); err == nil {
				os.Remove(filepath.Join(dir, "t.jsonl"))
				t.Errorf("a failed record left t.jsonl behind:\n%s", stderr)
			}
		})
	}
	_, stop := startRecord(t, dir, "http://127.0.0.1:1/mcp", "t.jsonl")
	stop()
	if rec, _ := loadRecording(t, filepath.Join(dir, "t.jsonl")); rec.Methods == nil {
		t.Error("the retry's recording was not closed in order")
	}
}

// TestRecordingSecretsStayOut: a recording whose URIs carry secrets (one
// made before the proxy masked them, or written by hand) gives them to
// neither init --from's workload nor a replay's result (saved 0644): both
// read it masked, and say so.
func TestRecordingSecretsStayOut(t *testing.T) {
	dir := t.TempDir()
	secrets := []string{"t0k3n-q1", "k3y-q2", "pa55-q3", "ghp-q4", "s1g-q5"}
	uris := []string{
		"sim:///a.md?mime=text/markdown&size=100&token=" + secrets[0],
		"sim:///b.md?mime=text/markdown&size=200&api_key=" + secrets[1],
		"sim://alice:" + secrets[2] + "@h/c.md?mime=text/plain&size=50",
		"sim://" + secrets[3] + "@h/d.md?mime=text/plain&size=60",    // issue 47, item 10: a token as the user
		"sim:///e.md?mime=text/plain&size=70&sv=1&sig=" + secrets[4], // and a SAS signature
	}
	text := `{"type":"header","format":"readbench/recording","version":1,"upstream":"http://127.0.0.1:1/mcp","transport":"http","started":"2026-12-03T12:00:00Z"}` + "\n"
	for i, u := range uris {
		text += fmt.Sprintf(`{"type":"read","at_ms":%d,"session":"s1","turn":%d,"uri":%q,"outcome":"ok","bytes":100,"wire_bytes":200,"mime":"text/markdown","latency_ms":1}`+"\n", i*50, i+1, u)
	}
	if err := os.WriteFile(filepath.Join(dir, "rec.jsonl"), []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		args []string
		file string
	}{
		{"init --from", []string{"init", "--from", "rec.jsonl", "--out", "w.yaml"}, "w.yaml"},
		{"replay", []string{"replay", "rec.jsonl", "--target", "embedded", "--out", "r.json", "-q"}, "r.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			stdout, stderr, code := readbench(t, dir, tc.args...)
			saved, err := os.ReadFile(filepath.Join(dir, tc.file))
			if err != nil {
				t.Fatalf("exit %d, no %s: %v\n%s", code, tc.file, err, stderr)
			}
			for _, s := range secrets {
				if strings.Contains(string(saved)+stdout+stderr, s) {
					t.Errorf("%s or its output holds %q", tc.file, s)
				}
			}
			if !strings.Contains(string(saved), "token=xxxxx") || !strings.Contains(stderr, "5 recorded reads had a secret in their URI") {
				t.Errorf("%s lacks the masked URI, or stderr the word of it:\n%s", tc.file, stderr)
			}
		})
	}
}

// TestRecordListenBarePort: `record --listen :PORT` from end to end serves
// on 127.0.0.1:PORT without a warning, and on none of the machine's other
// addresses (before, it bound every interface without a word, issue 47,
// item 11): a connection to any of them is refused.
func TestRecordListenBarePort(t *testing.T) {
	port := freePort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := testproc.Own(t, exec.CommandContext(ctx, binary, "record", "--listen", fmt.Sprintf(":%d", port),
		"--upstream", "http://127.0.0.1:1/mcp", "--out", "t.jsonl"))
	cmd.Dir = t.TempDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
		if strings.Contains(stderr.String(), "warning") {
			t.Errorf("--listen :%d warned:\n%s", port, stderr.String())
		}
	}()
	loopback := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	if !poll(30*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", loopback, time.Second)
		if err == nil {
			c.Close()
		}
		return err == nil
	}) {
		t.Fatalf("record --listen :%d never listened on %s:\n%s", port, loopback, stderr.String())
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	others := 0
	for _, a := range addrs {
		ip, ok := a.(*net.IPNet)
		if !ok || ip.IP.IsLoopback() || ip.IP.IsLinkLocalUnicast() {
			continue
		}
		others++
		if c, err := net.DialTimeout("tcp", net.JoinHostPort(ip.IP.String(), strconv.Itoa(port)), 2*time.Second); err == nil {
			c.Close()
			t.Errorf("record --listen :%d serves on %s too, not only on loopback", port, ip.IP)
		}
	}
	if others == 0 {
		t.Logf("this machine has no address but loopback: only the bind to 127.0.0.1 is shown")
	}
}
