package targets

import (
	"slices"
	"testing"
)

// TestRedactSecrets: the password of every URL, and the value of a
// NAME=value word whose name looks secret, are masked wherever they are
// (`stdio:env MYSQL_PASS=… node server.js` was once saved verbatim), and
// nothing else is touched.
func TestRedactSecrets(t *testing.T) {
	cases := []struct{ in, want, why string }{
		{"embedded", "embedded", "nothing to hide"},
		{"https://h/mcp", "https://h/mcp", "no user information"},
		{"https://u@h/mcp", "https://u@h/mcp", "a user name alone is not a secret"},
		{"https://u:p@h/mcp", "https://u:xxxxx@h/mcp", "the password is"},
		{"sse+http://u:p@ss@h/sse", "sse+http://u:xxxxx@h/sse", "an @ inside the password"},
		{"stdio:srv --upstream=https://u:p@h/x -v", "stdio:srv --upstream=https://u:xxxxx@h/x -v", "in an argument"},
		{"stdio:mail user@example.com", "stdio:mail user@example.com", "an address is not a URL"},
		{"stdio:env MYSQL_PASS=hunter2 node server.js", "stdio:env MYSQL_PASS=xxxxx node server.js", "an env assignment"},
		{"stdio:PGPASSWORD=s3 psql-mcp", "stdio:PGPASSWORD=xxxxx psql-mcp", "the first word after stdio:"},
		{"stdio:srv --api-key=abc --port=3", "stdio:srv --api-key=xxxxx --port=3", "a flag's value, and only the secret one"},
		{"stdio:env 'DB_PASSWORD=a b' srv", "stdio:env DB_PASSWORD=xxxxx srv", "a quoted word with a space (the mask needs no quotes)"},
		{`stdio:env "GH_TOKEN=it's" srv`, `stdio:env GH_TOKEN=xxxxx srv`, "a double-quoted word"},
		{"stdio:env AWS_SECRET_ACCESS_KEY=k1 SESSION_CREDENTIALS=c2 srv", "stdio:env AWS_SECRET_ACCESS_KEY=xxxxx SESSION_CREDENTIALS=xxxxx srv", "two of them"},
		{"https://h/mcp?api_key=abc&page=2#x", "https://h/mcp?api_key=xxxxx&page=2#x", "a URL's query parameter"},
		{"https://u:p@h/mcp?token=t", "https://u:xxxxx@h/mcp?token=xxxxx", "a password and a token"},
		// issue 47, item 10: signatures that are credentials, and a fragment's token.
		{"https://a.blob.core.windows.net/c/k?sv=2022-11-02&sig=AbC%2F1&se=2026", "https://a.blob.core.windows.net/c/k?sv=2022-11-02&sig=xxxxx&se=2026", "Azure's SAS signature"},
		{"s3://b/k?X-Amz-Date=1&X-Amz-Signature=fe5f", "s3://b/k?X-Amz-Date=1&X-Amz-Signature=xxxxx", "S3's signature"},
		{"docs://a/b?jwt=eyJ.x.y&v=1", "docs://a/b?jwt=xxxxx&v=1", "a jwt parameter"},
		{"docs://a/b#access_token=t0k&token_type=bearer", "docs://a/b#access_token=xxxxx&token_type=xxxxx", "a fragment's token (the implicit grant)"},
		{"stdio:srv --sig=HUP SIG=TERM", "stdio:srv --sig=HUP SIG=TERM", "a signal in a command is no signature"},
		{"stdio:env MYSQL_HOST=db MYSQL_USER=root srv", "stdio:env MYSQL_HOST=db MYSQL_USER=root srv", "no secret in the names"},
		{"stdio:env MYSQL_PASS= srv", "stdio:env MYSQL_PASS= srv", "an empty value hides nothing"},
		{"stdio:srv a=b=PASS=c", "stdio:srv a=b=PASS=c", "not at a word's start"},
		{"stdio:srv --x 'TOKEN=never closed", "stdio:srv --x 'TOKEN=xxxxx", "not a target (an unclosed quote): masked to the end"},
		{"stdio:sh -c 'cd /srv && MYSQL_PASS=abc node s.js'", "stdio:sh -c 'cd /srv && MYSQL_PASS=xxxxx node s.js'", "inside a word"},
		{"stdio:sh -c 'MYSQL_PASS=abc node s.js'", "stdio:sh -c MYSQL_PASS=xxxxx", "a word that starts with one: its whole value, a space in a password included"},
		{"connect: open stdio:env PASS=abc x: no such file", "connect: open stdio:env PASS=xxxxx x: no such file", "in a message"},
		// issue 47, item 18: the flag forms, in a command's own words.
		{"stdio:srv --token abc --port 3", "stdio:srv --token xxxxx --port 3", "a flag's value in the next word"},
		{"stdio:srv --password 'a b' -v", "stdio:srv --password xxxxx -v", "a quoted value"},
		{"stdio:srv --client-secret c --secret s --api-key k", "stdio:srv --client-secret xxxxx --secret xxxxx --api-key xxxxx", "each secret flag"},
		{"stdio:srv -token abc", "stdio:srv -token xxxxx", "a single-dash long flag (Go's flag package)"},
		{"stdio:srv --auth Bearer:abc", "stdio:srv --auth Bearer:xxxxx", "an authorization, its scheme kept"},
		{"stdio:srv --authorization 'Bearer abc'", "stdio:srv --authorization 'Bearer xxxxx'", "a scheme and a space in one word"},
		{"stdio:srv --auth Bearer abc x", "stdio:srv --auth Bearer xxxxx x", "a scheme and its secret as two words"},
		{"stdio:srv --auth=Bearer:abc --basic-auth=u:p", "stdio:srv --auth=Bearer:xxxxx --basic-auth=xxxxx", "--flag=value forms of an authorization"},
		{"stdio:mcp-remote https://h/mcp --header 'Authorization: Bearer abc'", "stdio:mcp-remote https://h/mcp --header 'Authorization: Bearer xxxxx'", "a header word"},
		{"stdio:srv --header X-Api-Key:abc", "stdio:srv --header X-Api-Key:xxxxx", "a secret header without a space"},
		{"stdio:srv --token --stdio", "stdio:srv --token --stdio", "a secret flag used as a switch: the next flag is no value"},
		{"stdio:srv --token-file /run/t --key-path k.pem --password-env PW", "stdio:srv --token-file /run/t --key-path k.pem --password-env PW", "where a secret is kept is no secret"},
		{"stdio:mysql-mcp -u root -p hunter2 db", "stdio:mysql-mcp -u root -p xxxxx db", "-p as the server's flag"},
		{"stdio:srv -p 8080", "stdio:srv -p 8080", "-p a port"},
		{"stdio:docker run -i -p 127.0.0.1:8080:80 img", "stdio:docker run -i -p 127.0.0.1:8080:80 img", "-p an address mapping"},
		{"stdio:uvx -p 3.12 mcp-server-x", "stdio:uvx -p 3.12 mcp-server-x", "-p a version"},
		{"stdio:npx -y -p @acme/mcp acme-mcp -p s3", "stdio:npx -y -p @acme/mcp acme-mcp -p xxxxx", "npx's -p is --package; the server's -p is its own"},
		{"stdio:env A=1 npm exec -p pkg -- srv -p s3", "stdio:env A=1 npm exec -p pkg -- srv -p xxxxx", "npm exec after env"},
		{"stdio:npx @modelcontextprotocol/server-postgres postgresql://user:secret@host/db", "stdio:npx @modelcontextprotocol/server-postgres postgresql://user:xxxxx@host/db", "a URL as an argument"},
		{"stdio:sh -c 'srv --token abc'", "stdio:sh -c 'srv --token xxxxx'", "a flag inside a word"},
		// in a text: a message, or a target that does not parse
		{`bad target "stdio:srv --token \"abc": unterminated`, `bad target "stdio:srv --token \"xxxxx": unterminated`, "a quoted value in a message"},
		{`Post "http://h/mcp?token=abc": dial tcp: refused`, `Post "http://h/mcp?token=xxxxx": dial tcp: refused`, "net/http's quoted URL"},
		{"unknown target http//u:pw@h/mcp", "unknown target http//u:xxxxx@h/mcp", "a URL without its scheme's colon"},
		{"AUTHORIZATION=Bearer abc srv", "AUTHORIZATION=Bearer xxxxx srv", "an authorization assignment in a text"},
		{"srv -p abc", "srv -p abc", "-p in a text: the command is unknown"},
		{"GET http://h/sse?token=xxxxx: Get \"http://h/sse?token=abc\": refused", "GET http://h/sse?token=xxxxx: Get \"http://h/sse?token=xxxxx\": refused", "a message masked twice keeps its colons"},
		{"open: PASS=abc: denied", "open: PASS=xxxxx: denied", "a colon after a value is the message's"},
		// a value quoted after its '=' (NAME="…", --flag='…'): was shown whole
		{`stdio:sh -c 'cd /srv && MYSQL_PASS="hunter2" node s.js'`, `stdio:sh -c 'cd /srv && MYSQL_PASS="xxxxx" node s.js'`, "a double-quoted value inside a word"},
		{`stdio:sh -c "cd /srv && DB_PASSWORD='a b' node s.js"`, `stdio:sh -c "cd /srv && DB_PASSWORD='xxxxx' node s.js"`, "a single-quoted value with a space inside a word"},
		{`stdio:sh -c "srv --api-key='k1' -v"`, `stdio:sh -c "srv --api-key='xxxxx' -v"`, "a --flag='value' inside a word"},
		{`run API_KEY="abc def" srv`, `run API_KEY="xxxxx" srv`, "a double-quoted value in a text"},
		{`run API_KEY=\"abc\" srv`, `run API_KEY=\"xxxxx\" srv`, "an escaped quote, as %q writes it"},
		{`bad target "stdio:node --api-key=\"abc unclosed": unterminated`, `bad target "stdio:node --api-key=\"xxxxx": unterminated`, "an unclosed quoted value in a quoted message: masked to the message's quote"},
		{`stdio:node API_KEY="abc unclosed`, `stdio:node API_KEY="xxxxx`, "an unclosed quote after '=': masked to the end"},
		{`run AUTH="Bearer abc" srv`, `run AUTH="Bearer xxxxx" srv`, "a quoted authorization keeps its scheme"},
	}
	for _, c := range cases {
		if got := RedactSecrets(c.in); got != c.want {
			t.Errorf("%s: RedactSecrets(%q) = %q, want %q", c.why, c.in, got, c.want)
		}
	}
}

// TestMaskedArgs: a command read back from a result tells the words that
// still hold the mask where a secret was (so that no run sends the
// placeholder as the secret), and only those.
func TestMaskedArgs(t *testing.T) {
	cases := []struct {
		target string
		want   []string
	}{
		{"stdio:srv --token xxxxx", []string{"xxxxx"}},
		{"stdio:srv --auth Bearer:xxxxx", []string{"Bearer:xxxxx"}},
		{"stdio:srv --auth Bearer xxxxx", []string{"xxxxx"}},
		{"stdio:env MYSQL_PASS=xxxxx srv", []string{"MYSQL_PASS=xxxxx"}},
		{"stdio:srv postgresql://u:xxxxx@h/db", []string{"postgresql://u:xxxxx@h/db"}},
		{"stdio:srv -p xxxxx", []string{"xxxxx"}},
		{"stdio:srv --header 'Authorization: Bearer xxxxx'", []string{"Authorization: Bearer xxxxx"}},
		{"stdio:srv xxxxx --name xxxxx", nil},
		{"stdio:srv --token abc", nil},
	}
	for _, c := range cases {
		tg, err := Parse(c.target)
		if err != nil {
			t.Fatal(err)
		}
		if got := tg.MaskedArgs(); !slices.Equal(got, c.want) {
			t.Errorf("MaskedArgs(%q) = %q, want %q", c.target, got, c.want)
		}
	}
}
