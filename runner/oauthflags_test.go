package runner

import (
	"reflect"
	"testing"

	"github.com/readbench/readbench/workload"
)

// TestOAuthFlagsMerge: a flag given wins over the workload's auth.oauth,
// a flag not given leaves it, --oauth-param replaces a NAME the workload
// has and adds the others, and neither asking for OAuth is nil.
func TestOAuthFlagsMerge(t *testing.T) {
	base := &workload.Auth{OAuth: &workload.OAuth{Grant: "client_credentials", ClientID: "file", Scope: "mcp:read",
		TokenParams: map[string][]string{"audience": {"a"}, "keep": {"k"}}}}
	for _, tc := range []struct {
		name    string
		flags   OAuthFlags
		wa      *workload.Auth
		want    *workload.OAuth
		wantErr bool
	}{
		{"neither", OAuthFlags{}, nil, nil, false},
		{"workload alone", OAuthFlags{}, base, base.OAuth, false},
		{"flags alone", OAuthFlags{"oauth-client-id": {"cli"}, "oauth-grant": {"client_credentials"}}, nil,
			&workload.OAuth{ClientID: "cli", Grant: "client_credentials"}, false},
		{"flag wins", OAuthFlags{"oauth-client-id": {"cli"}, "oauth-param": {"audience=b", "audience=c", "extra=x"}}, base,
			&workload.OAuth{Grant: "client_credentials", ClientID: "cli", Scope: "mcp:read",
				TokenParams: map[string][]string{"audience": {"b", "c"}, "keep": {"k"}, "extra": {"x"}}}, false},
		{"bad param", OAuthFlags{"oauth-param": {"novalue"}}, nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.flags.Merge(tc.wa)
			if (err != nil) != tc.wantErr {
				t.Fatalf("error %v, want one: %v", err, tc.wantErr)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
	if base.OAuth.TokenParams["audience"][0] != "a" {
		t.Errorf("the workload's own parameters were changed: %v", base.OAuth.TokenParams)
	}
}
