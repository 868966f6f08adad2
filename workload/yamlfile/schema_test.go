package yamlfile

import (
	"encoding/json"
	"github.com/readbench/readbench/workload"
	"maps"
	"slices"
	"testing"
)

// The schema names exactly the keys the parser accepts.
func TestSchemaKeys(t *testing.T) {
	type object struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	var root struct {
		object
		Defs map[string]object `json:"$defs"`
	}
	if err := json.Unmarshal(JSONSchema(), &root); err != nil {
		t.Fatal(err)
	}
	sub := func(name string) []string {
		var o object
		if err := json.Unmarshal(root.Properties[name], &o); err != nil {
			t.Fatal(err)
		}
		return slices.Sorted(maps.Keys(o.Properties))
	}
	keys := func(o object) []string { return slices.Sorted(maps.Keys(o.Properties)) }
	for _, c := range []struct {
		what      string
		got, want []string
	}{
		{"top", keys(root.object), topSection().keys()},
		{"load", sub("load"), loadSection().keys()},
		{"turn", sub("turn"), turnSection().keys()},
		{"stage", keys(root.Defs["stage"]), stageSection().keys()},
		{"class", keys(root.Defs["class"]), classSection().keys()},
		{"auth", sub("auth"), authSection().keys()},
		{"auth.oauth", oauthKeys(t, root.Properties["auth"]), oauthSection().keys()},
	} {
		if want := slices.Sorted(slices.Values(c.want)); !slices.Equal(c.got, want) {
			t.Errorf("%s keys: schema %v, parser %v", c.what, c.got, want)
		}
	}
	var class struct {
		Properties struct {
			Expect struct {
				Enum []string `json:"enum"`
			} `json:"expect"`
		} `json:"properties"`
	}
	raw, _ := json.Marshal(root.Defs["class"])
	_ = json.Unmarshal(raw, &class)
	if !slices.Equal(class.Properties.Expect.Enum, workload.ExpectNames()) {
		t.Errorf("expect enum %v, want %v", class.Properties.Expect.Enum, workload.ExpectNames())
	}
}

// oauthKeys is the keys of the schema's auth.oauth object.
func oauthKeys(t *testing.T, auth json.RawMessage) []string {
	t.Helper()
	var a struct {
		Properties struct {
			OAuth struct {
				Properties map[string]json.RawMessage `json:"properties"`
			} `json:"oauth"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(auth, &a); err != nil {
		t.Fatal(err)
	}
	return slices.Sorted(maps.Keys(a.Properties.OAuth.Properties))
}
