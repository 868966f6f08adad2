package auth

import (
	"slices"
	"testing"
)

func TestParseChallenge(t *testing.T) {
	for _, c := range []struct {
		name, header string
		want         Challenge
		wantErr      bool
	}{
		{"empty", "", Challenge{}, false},
		{"bare bearer", "Bearer", Challenge{}, false},
		{"resource metadata and scope", `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource", scope="files:read files:write"`,
			Challenge{ResourceMetadata: "https://mcp.example.com/.well-known/oauth-protected-resource", Scope: []string{"files:read", "files:write"}}, false},
		{"insufficient scope", `Bearer error="insufficient_scope", scope="admin", error_description="more, please"`,
			Challenge{Error: "insufficient_scope", Scope: []string{"admin"}}, false},
		{"token values and case", `bearer Error=invalid_token, Scope=read`, Challenge{Error: "invalid_token", Scope: []string{"read"}}, false},
		{"another scheme first", `Basic realm="x", Bearer scope="mcp"`, Challenge{Scope: []string{"mcp"}}, false},
		{"only another scheme", `Basic realm="x"`, Challenge{}, false},
		{"escaped quote", `Bearer scope="a\"b"`, Challenge{Scope: []string{`a"b`}}, false},
		{"unterminated quote", `Bearer scope="mcp`, Challenge{}, true},
		{"no value", `Bearer scope=`, Challenge{}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := ParseChallenge(c.header)
			if (err != nil) != c.wantErr {
				t.Fatalf("err = %v, want error %v", err, c.wantErr)
			}
			if got.ResourceMetadata != c.want.ResourceMetadata || got.Error != c.want.Error || !slices.Equal(got.Scope, c.want.Scope) {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
			if got.InsufficientScope() != (c.want.Error == "insufficient_scope") {
				t.Errorf("InsufficientScope() = %v", got.InsufficientScope())
			}
		})
	}
}

// FuzzParseChallenge: any header parses or fails cleanly, and what parses
// has no empty scope entries.
func FuzzParseChallenge(f *testing.F) {
	for _, s := range []string{"", "Bearer", `Bearer resource_metadata="https://x/y", scope="a b"`, `Basic realm="x", Bearer error="insufficient_scope"`, `Bearer scope="a\"`, `"Bearer`, `Bearer a=b,,c=d`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		c, err := ParseChallenge(h)
		if err != nil {
			return
		}
		for _, s := range c.Scope {
			if s == "" {
				t.Fatalf("%q: empty scope entry in %q", h, c.Scope)
			}
		}
	})
}
