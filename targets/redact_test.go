package targets

import "testing"

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
		{"stdio:env MYSQL_HOST=db MYSQL_USER=root srv", "stdio:env MYSQL_HOST=db MYSQL_USER=root srv", "no secret in the names"},
		{"stdio:env MYSQL_PASS= srv", "stdio:env MYSQL_PASS= srv", "an empty value hides nothing"},
		{"stdio:srv a=b=PASS=c", "stdio:srv a=b=PASS=c", "not at a word's start"},
		{"stdio:srv --x 'TOKEN=never closed", "stdio:srv --x 'TOKEN=xxxxx", "not a target (an unclosed quote): masked to the end"},
		{"stdio:sh -c 'cd /srv && MYSQL_PASS=abc node s.js'", "stdio:sh -c 'cd /srv && MYSQL_PASS=xxxxx node s.js'", "inside a word"},
		{"stdio:sh -c 'MYSQL_PASS=abc node s.js'", "stdio:sh -c MYSQL_PASS=xxxxx", "a word that starts with one: its whole value, a space in a password included"},
		{"connect: open stdio:env PASS=abc x: no such file", "connect: open stdio:env PASS=xxxxx x: no such file", "in a message"},
	}
	for _, c := range cases {
		if got := RedactSecrets(c.in); got != c.want {
			t.Errorf("%s: RedactSecrets(%q) = %q, want %q", c.why, c.in, got, c.want)
		}
	}
}
