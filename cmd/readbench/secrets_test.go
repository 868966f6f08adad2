package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretFlagsNeverPrinted (issue 47, item 18): a secret given to a
// stdio server as a flag's value (--token X, --password X,
// --client-secret X, -p X, --auth Bearer:X, --api-key=X), a URL query
// token quoted by net/http in a transport failure, a malformed --header
// and a bad target are never in the result file, any rendering of it,
// stdout or stderr. The stdio server is the real readbench server behind
// sh -c, which ignores the arguments after it, so the run reads.
func TestSecretFlagsNeverPrinted(t *testing.T) {
	t.Parallel()
	const secret = "f1ag-s3cret"
	dir := t.TempDir()
	target := "stdio:sh -c 'exec " + binary + " serve --stdio' sh --token " + secret + "-1 --password " + secret + "-2" +
		" --client-secret " + secret + "-3 -p " + secret + "-4 --auth Bearer:" + secret + "-5 --api-key=" + secret + "-6" +
		" --secret '" + secret + "-7 x' --authorization 'Bearer " + secret + "-8'"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()

	outputs := map[string]string{}
	for _, c := range []struct {
		name string
		args []string
		code int
		want string // in stdout+stderr
	}{
		{"run stdio", []string{"run", "--target", target, "--rate", "10/s", "--duration", "1s", "--out", "r.json"}, 0, ""},
		{"check stdio", []string{"check", "--target", target}, 0, "--token xxxxx --password xxxxx --client-secret xxxxx -p xxxxx --auth Bearer:xxxxx --api-key=xxxxx"},
		{"check stdio json", []string{"check", "--target", target, "--format", "json"}, 0, "--secret xxxxx --authorization 'Bearer xxxxx'"},
		{"run query token", []string{"run", "--target", "http://" + closed + "/mcp?token=" + secret + "-9", "--duration", "1s", "--out", "q.json"}, 1, "?token=xxxxx"},
		{"run query token over sse", []string{"run", "--target", "sse+http://" + closed + "/sse?access_token=" + secret + "-10", "--duration", "1s", "--out", "q.json"}, 1, "?access_token=xxxxx"},
		{"check query token", []string{"check", "--target", "http://" + closed + "/mcp?api_key=" + secret + "-11"}, 1, "?api_key=xxxxx"},
		{"malformed header", []string{"run", "--header", "Authorization Bearer " + secret + "-12", "--duration", "1s"}, 2, `--header "Authorization …"`},
		{"bad target URL", []string{"run", "--target", "http://u:" + secret + "-13@[::1/mcp", "--duration", "1s"}, 2, "u:xxxxx@"},
		{"unknown target", []string{"check", "--target", "htp://u:" + secret + "-14@h/mcp"}, 2, "u:xxxxx@"},
		{"bad stdio target", []string{"run", "--target", `stdio:srv --token "` + secret + "-15", "--duration", "1s"}, 2, "--token"},
	} {
		stdout, stderr, code := readbench(t, dir, c.args...)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s\n%s", c.name, code, c.code, stdout, stderr)
		}
		if !strings.Contains(strings.Join(strings.Fields(stdout+stderr), " "), c.want) { // lines wrap to the width
			t.Errorf("%s: the output does not say %q:\n%s\n%s", c.name, c.want, stdout, stderr)
		}
		outputs[c.name] = stdout + stderr
	}
	saved, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	outputs["result file"] = string(saved)
	if !strings.Contains(string(saved), "--token xxxxx") {
		t.Errorf("the result does not save the masked command:\n%.2000s", saved)
	}
	for _, format := range []string{"table", "markdown", "json", "html"} {
		stdout, stderr, code := readbench(t, dir, "report", "--format", format, "--full", "r.json")
		if code != 0 {
			t.Errorf("report --format %s: exit %d: %s", format, code, stderr)
		}
		outputs["report --format "+format] = stdout + stderr
	}
	// A result with masked arguments does not run again as it is: the
	// placeholder would be sent as the secret.
	stdout, stderr, code := readbench(t, dir, "run", "--like", "r.json", "--duration", "1s", "--out", "again.json")
	if code != 2 || !strings.Contains(stderr, "is masked, as a result saves it") {
		t.Errorf("run --like a masked result: exit %d, want 2 and the masked argument named:\n%s\n%s", code, stdout, stderr)
	}
	outputs["run --like"] = stdout + stderr
	for what, text := range outputs {
		if strings.Contains(text, secret) {
			i := strings.Index(text, secret)
			t.Errorf("%s shows a secret: …%s…", what, text[max(0, i-120):min(len(text), i+40)])
		}
	}
}
