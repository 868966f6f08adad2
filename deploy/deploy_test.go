package deploy

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/readbench/readbench/workload"
	"github.com/readbench/readbench/workload/yamlfile"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"
)

const dir = "kubernetes"

// kustomization is the part of a kustomize Kustomization the manifests
// use; decoded strictly, so a key kustomize would not know fails here too.
type kustomization struct {
	APIVersion         string   `json:"apiVersion"`
	Kind               string   `json:"kind"`
	Resources          []string `json:"resources"`
	Images             []image  `json:"images"`
	ConfigMapGenerator []struct {
		Name     string   `json:"name"`
		Literals []string `json:"literals"`
		Files    []string `json:"files"`
	} `json:"configMapGenerator"`
}

type image struct {
	Name    string `json:"name"`
	NewName string `json:"newName"`
	NewTag  string `json:"newTag"`
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// decodeStrict decodes one YAML document into v the way the API server
// does in strict mode: field names matched case-sensitively, unknown and
// duplicate fields refused. (encoding/json, under sigs.k8s.io/yaml's
// UnmarshalStrict, matches names case-insensitively: "completionmode"
// would pass for completionMode.)
func decodeStrict(data []byte, v any) error {
	j, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return err
	}
	strictErrs, err := kjson.UnmarshalStrict(j, v, kjson.DisallowDuplicateFields, kjson.DisallowUnknownFields)
	if err != nil {
		return err
	}
	return errors.Join(strictErrs...)
}

// strict is decodeStrict, failing the test.
func strict(t *testing.T, name string, data []byte, v any) {
	t.Helper()
	if err := decodeStrict(data, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// manifests decodes every resource of the kustomization by its kind.
type manifests struct {
	k      kustomization
	jobs   map[string]*batchv1.Job
	claims map[string]*corev1.PersistentVolumeClaim
}

func load(t *testing.T) manifests {
	t.Helper()
	m := manifests{jobs: map[string]*batchv1.Job{}, claims: map[string]*corev1.PersistentVolumeClaim{}}
	strict(t, "kustomization.yaml", read(t, "kustomization.yaml"), &m.k)
	if m.k.APIVersion != "kustomize.config.k8s.io/v1beta1" || m.k.Kind != "Kustomization" {
		t.Fatalf("kustomization.yaml: %s %s", m.k.APIVersion, m.k.Kind)
	}
	for _, res := range m.k.Resources {
		for _, doc := range bytes.Split(read(t, res), []byte("\n---")) {
			var head struct {
				Kind string `json:"kind"`
			}
			if err := yaml.Unmarshal(doc, &head); err != nil {
				t.Fatalf("%s: %v", res, err)
			}
			switch head.Kind {
			case "Job":
				j := new(batchv1.Job)
				strict(t, res, doc, j)
				m.jobs[j.Name] = j
			case "PersistentVolumeClaim":
				c := new(corev1.PersistentVolumeClaim)
				strict(t, res, doc, c)
				m.claims[c.Name] = c
			default:
				t.Fatalf("%s: unexpected kind %q", res, head.Kind)
			}
		}
	}
	return m
}

// TestStrictDecodingCatchesTypos: the decoding the other tests rely on
// fails on a misspelt field, so a typo in a manifest cannot pass.
func TestStrictDecodingCatchesTypos(t *testing.T) {
	good := read(t, "shards-job.yaml")
	for _, typo := range [][2]string{{"completionMode:", "completionmode:"}, {"parallelism:", "paralelism:"}, {"claimName:", "claimname:"},
		{"backoffLimit: 0", "backoffLimit: 0\n  backoffLimit: 1"}} {
		bad := bytes.Replace(good, []byte(typo[0]), []byte(typo[1]), 1)
		if bytes.Equal(bad, good) {
			t.Fatalf("%s not in the manifest", typo[0])
		}
		if err := decodeStrict(bad, new(batchv1.Job)); err == nil {
			t.Errorf("%s misspelt %s decoded without an error", typo[0], typo[1])
		}
	}
}

// TestShardsJob: the Indexed Job's shard count agrees with its --segment
// arguments and with the merge step, and the shards start through
// --barrier on the shared volume, with no hand-set time.
func TestShardsJob(t *testing.T) {
	m := load(t)
	j := m.jobs["readbench-shards"]
	if j == nil {
		t.Fatalf("no readbench-shards Job among %v", m.k.Resources)
	}
	s := j.Spec
	if s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion {
		t.Fatal("the shards Job is not Indexed: pods would not get a completion index")
	}
	if s.Completions == nil || s.Parallelism == nil || *s.Completions != *s.Parallelism || *s.Completions < 1 {
		t.Fatalf("completions %v, parallelism %v: want equal (every shard at once)", s.Completions, s.Parallelism)
	}
	n := int(*s.Completions)
	c := onlyContainer(t, j)
	args := c.Args
	if len(args) < 2 || args[0] != "run" {
		t.Fatalf("args %v: want run WORKLOAD ...", args)
	}
	// --segment names the same n, in the zero-based form of the index.
	seg := flagValue(t, args, "--segment")
	if want := "index:$(JOB_COMPLETION_INDEX)/" + strconv.Itoa(n); seg != want {
		t.Errorf("--segment=%s, want %s (n = completions = %d)", seg, want, n)
	}
	for i := range n {
		got, err := workload.ParseSegment(strings.ReplaceAll(seg, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i)))
		if err != nil || got != (workload.Segment{K: i + 1, N: n}) {
			t.Errorf("index %d: segment %+v, %v", i, got, err)
		}
	}
	env := map[string]corev1.EnvVar{}
	for _, e := range c.Env {
		env[e.Name] = e
	}
	if e := env["JOB_COMPLETION_INDEX"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
		e.ValueFrom.FieldRef.FieldPath != "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
		t.Errorf("JOB_COMPLETION_INDEX is not the completion index: %+v", e)
	}
	// No hand-set start: the shards start themselves through a folder on
	// the shared volume, under a run id unique to the Job.
	for _, a := range args {
		if strings.HasPrefix(a, "--start-at") {
			t.Errorf("%s: the shards must start themselves (--barrier), not at a hand-set time", a)
		}
	}
	barrierDir := flagValue(t, args, "--barrier")
	if barrierDir == "" {
		t.Fatal("the shards do not start through --barrier")
	}
	if e := env["READBENCH_RUN_ID"]; e.ValueFrom == nil || e.ValueFrom.FieldRef == nil ||
		e.ValueFrom.FieldRef.FieldPath != "metadata.labels['batch.kubernetes.io/controller-uid']" {
		t.Errorf("READBENCH_RUN_ID (--run-id) is not the Job's uid: %+v", e)
	}
	for _, g := range m.k.ConfigMapGenerator {
		for _, l := range g.Literals {
			if strings.HasPrefix(l, "START_AT=") {
				t.Errorf("the ConfigMap %s still sets %s", g.Name, l)
			}
		}
	}
	// The workload is the generated ConfigMap's file, mounted where run reads it, and parses.
	wl := mountedFile(t, j, args[1])
	gen := generated(t, m.k, wl.configMap)
	if wl.configMap != gen.Name || !slices.Contains(gen.Files, wl.key) {
		t.Errorf("the workload %s comes from %+v, not a file of the generated ConfigMap %s", args[1], wl, gen.Name)
	}
	w, err := yamlfile.Load(filepath.Join(dir, wl.key))
	if err != nil {
		t.Fatalf("the shipped workload: %v", err)
	}
	if _, err := w.Segment(workload.Segment{K: 1, N: n}); err != nil {
		t.Errorf("the shipped workload cannot be split in %d: %v", n, err)
	}
	// Each shard writes its own file on the shared volume.
	out := flagValue(t, args, "--out")
	if out != "/results/shard-$(JOB_COMPLETION_INDEX).json" {
		t.Errorf("--out=%s", out)
	}
	claim := claimAt(t, j, filepath.Dir(out))
	pvc := m.claims[claim]
	if pvc == nil || !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany) {
		t.Errorf("results go to claim %q, which is not a ReadWriteMany PersistentVolumeClaim of the kustomization", claim)
	}
	if claimAt(t, j, filepath.Dir(barrierDir)) != claim {
		t.Errorf("--barrier=%s is not on the shared volume the results go to", barrierDir)
	}
	if j.Spec.Template.Spec.RestartPolicy != corev1.RestartPolicyNever || s.BackoffLimit == nil || *s.BackoffLimit != 0 {
		t.Error("a shard must not be retried: it could not rejoin a run whose start has passed")
	}
	nonRoot(t, j)

	// The merge step reads exactly the n shards' files from the same claim.
	mj := m.jobs["readbench-merge"]
	if mj == nil {
		t.Fatal("no readbench-merge Job")
	}
	mc := onlyContainer(t, mj)
	if len(mc.Args) == 0 || mc.Args[0] != "merge" {
		t.Fatalf("merge args %v", mc.Args)
	}
	var files []string
	for _, a := range mc.Args[1:] {
		if !strings.HasPrefix(a, "-") {
			files = append(files, a)
		}
	}
	var want []string
	for i := range n {
		want = append(want, strings.ReplaceAll(out, "$(JOB_COMPLETION_INDEX)", strconv.Itoa(i)))
	}
	if !slices.Equal(files, want) {
		t.Errorf("merge reads %v, the shards write %v", files, want)
	}
	if flagValue(t, mc.Args, "--wait") == "" {
		t.Error("the merge does not wait for the shards (--wait)")
	}
	if claimAt(t, mj, "/results") != claim {
		t.Error("the merge reads another volume than the shards write")
	}
	nonRoot(t, mj)
	// One image name, which the kustomization sets.
	if len(m.k.Images) != 1 || m.k.Images[0].NewName == "" {
		t.Fatalf("kustomization images %+v: want the one image set once", m.k.Images)
	}
	for _, jj := range []*batchv1.Job{j, mj} {
		if img := onlyContainer(t, jj).Image; img != m.k.Images[0].Name {
			t.Errorf("%s uses image %q, not the kustomization's %q", jj.Name, img, m.k.Images[0].Name)
		}
	}
}

func onlyContainer(t *testing.T, j *batchv1.Job) corev1.Container {
	t.Helper()
	if cs := j.Spec.Template.Spec.Containers; len(cs) == 1 {
		return cs[0]
	}
	t.Fatalf("%s: want one container", j.Name)
	return corev1.Container{}
}

// flagValue is the value of --name=VALUE in args ("" when absent).
func flagValue(t *testing.T, args []string, name string) string {
	t.Helper()
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

func generated(t *testing.T, k kustomization, name string) struct {
	Name     string   `json:"name"`
	Literals []string `json:"literals"`
	Files    []string `json:"files"`
} {
	t.Helper()
	for _, g := range k.ConfigMapGenerator {
		if g.Name == name {
			return g
		}
	}
	t.Fatalf("no configMapGenerator named %s", name)
	return k.ConfigMapGenerator[0]
}

type mounted struct{ configMap, key string }

// mountedFile finds which ConfigMap key a container path comes from.
func mountedFile(t *testing.T, j *batchv1.Job, path string) mounted {
	t.Helper()
	c := onlyContainer(t, j)
	for _, vm := range c.VolumeMounts {
		rel, err := filepath.Rel(vm.MountPath, path)
		if err != nil || strings.HasPrefix(rel, "..") {
			continue
		}
		for _, v := range j.Spec.Template.Spec.Volumes {
			if v.Name == vm.Name && v.ConfigMap != nil {
				for _, it := range v.ConfigMap.Items {
					if it.Path == rel {
						return mounted{v.ConfigMap.Name, it.Key}
					}
				}
			}
		}
	}
	t.Fatalf("%s: %s is on no ConfigMap volume", j.Name, path)
	return mounted{}
}

// claimAt is the PersistentVolumeClaim mounted at dir.
func claimAt(t *testing.T, j *batchv1.Job, dir string) string {
	t.Helper()
	for _, vm := range onlyContainer(t, j).VolumeMounts {
		if vm.MountPath != dir {
			continue
		}
		for _, v := range j.Spec.Template.Spec.Volumes {
			if v.Name == vm.Name && v.PersistentVolumeClaim != nil {
				return v.PersistentVolumeClaim.ClaimName
			}
		}
	}
	t.Fatalf("%s: no PersistentVolumeClaim at %s", j.Name, dir)
	return ""
}

func nonRoot(t *testing.T, j *batchv1.Job) {
	t.Helper()
	sc := j.Spec.Template.Spec.SecurityContext
	if sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot || sc.RunAsUser == nil || *sc.RunAsUser == 0 {
		t.Errorf("%s: pods may run as root", j.Name)
	}
}

// TestKustomizationFilesExist: everything the kustomization names is here.
func TestKustomizationFilesExist(t *testing.T) {
	m := load(t)
	names := slices.Clone(m.k.Resources)
	for _, g := range m.k.ConfigMapGenerator {
		names = append(names, g.Files...)
	}
	for _, n := range names {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Error(err)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !slices.Contains(names, e.Name()) && e.Name() != "kustomization.yaml" {
			t.Errorf("%s is not in the kustomization: kubectl apply -k would ignore it", e.Name())
		}
	}
}
