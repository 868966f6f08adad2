package scenarios

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/readbench/readbench/workload/yamlfile"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"
)

// TestScenariosValidateAgainstSchema: what `readbench schema` prints is what
// editors check workloads with, so every built-in scenario must pass it and
// a typo must not.
func TestScenariosValidateAgainstSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(yamlfile.JSONSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("readbench.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("readbench.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	validate := func(name string, data []byte) error {
		var v any
		if err := yaml.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		j, err := json.Marshal(stringKeys(v))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
		if err != nil {
			t.Fatal(err)
		}
		return schema.Validate(inst)
	}
	for _, name := range Names() {
		data, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := validate(name, data); err != nil {
			t.Errorf("scenario %s does not validate against the schema: %v", name, err)
		}
	}
	if err := validate("typo", []byte("name: x\nload: {rat: 5/s}\nmix: [{class: a, uri: 'docs://a'}]\n")); err == nil {
		t.Error("a workload with a typo (load.rat) validates against the schema")
	}
}

// stringKeys turns YAML maps with non-string keys ({1: 50, 4: 40}) into
// the JSON objects an editor's YAML language server sees.
func stringKeys(v any) any {
	switch x := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, e := range x {
			m[fmt.Sprint(k)] = stringKeys(e)
		}
		return m
	case map[string]any:
		for k, e := range x {
			x[k] = stringKeys(e)
		}
		return x
	case []any:
		for i, e := range x {
			x[i] = stringKeys(e)
		}
		return x
	}
	return v
}
