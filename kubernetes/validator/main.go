// Command validator checks the manifests `kubectl kustomize` builds from kubernetes/, offline:
//
//   - every built-in object decodes strictly into its typed API (k8s.io/api): an unknown field, a wrong type or a
//     duplicate key fails;
//   - every custom resource (CloudNativePG, the Barman Cloud plugin's ObjectStore, the OpenTelemetry collector) is
//     checked against the OpenAPI schema its project publishes in its CRD (schemas/);
//   - the objects agree with one another and with the project's rules (rules.go): references, selectors, ports,
//     probes, security settings, the replica lists.
//
// Usage: validator -secrets kubernetes/secrets.txt built-overlay.yaml...
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// The built-in kinds the manifests may use, each with its typed API. A kind not listed here fails: add it when a
// manifest starts using it.
var builtIn = map[string]func() any{
	"v1/Namespace":                           func() any { return &corev1.Namespace{} },
	"v1/ConfigMap":                           func() any { return &corev1.ConfigMap{} },
	"v1/Secret":                              func() any { return &corev1.Secret{} },
	"v1/Service":                             func() any { return &corev1.Service{} },
	"v1/ServiceAccount":                      func() any { return &corev1.ServiceAccount{} },
	"apps/v1/Deployment":                     func() any { return &appsv1.Deployment{} },
	"apps/v1/StatefulSet":                    func() any { return &appsv1.StatefulSet{} },
	"policy/v1/PodDisruptionBudget":          func() any { return &policyv1.PodDisruptionBudget{} },
	"autoscaling/v2/HorizontalPodAutoscaler": func() any { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"networking.k8s.io/v1/NetworkPolicy":     func() any { return &networkingv1.NetworkPolicy{} },
	"networking.k8s.io/v1/Ingress":           func() any { return &networkingv1.Ingress{} },
}

// object is one manifest: its identity, its typed form (built-in kinds) and its generic form (all kinds).
type object struct {
	source     string
	apiVersion string
	kind       string
	name       string
	typed      any
	generic    map[string]any
}

func (o object) String() string { return fmt.Sprintf("%s %s (%s)", o.kind, o.name, o.source) }

func main() {
	secretsFile := flag.String("secrets", "", "the Secrets operators create (name and keys per line)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: validator -secrets FILE BUILT.yaml...")
		os.Exit(2)
	}
	schemas, err := loadSchemas()
	if err != nil {
		fmt.Fprintln(os.Stderr, "validator: reading the schemas:", err)
		os.Exit(2)
	}
	external := map[string]map[string]bool{}
	if *secretsFile != "" {
		if external, err = readSecrets(*secretsFile); err != nil {
			fmt.Fprintln(os.Stderr, "validator:", err)
			os.Exit(2)
		}
	}
	failed := false
	for _, file := range flag.Args() {
		objects, problems := decodeFile(file, schemas)
		if len(problems) == 0 {
			problems = checkRules(objects, external)
		}
		for _, problem := range problems {
			fmt.Fprintf(os.Stderr, "%s: %s\n", file, problem)
		}
		if len(problems) > 0 {
			failed = true
		} else {
			fmt.Printf("%s: %d objects valid\n", file, len(objects))
		}
	}
	if failed {
		os.Exit(1)
	}
}

func decodeFile(file string, schemas map[string]crdSchema) ([]object, []string) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, []string{err.Error()}
	}
	reader := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	var objects []object
	var problems []string
	for index := 0; ; index++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, []string{err.Error()}
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		o, docProblems := decode(fmt.Sprintf("document %d", index+1), doc, schemas)
		problems = append(problems, docProblems...)
		if len(docProblems) == 0 {
			objects = append(objects, o)
		}
	}
	if len(objects) == 0 && len(problems) == 0 {
		problems = append(problems, "no objects")
	}
	return objects, problems
}

func decode(source string, doc []byte, schemas map[string]crdSchema) (object, []string) {
	asJSON, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		return object{}, []string{fmt.Sprintf("%s: %v", source, err)}
	}
	decoder := json.NewDecoder(bytes.NewReader(asJSON))
	decoder.UseNumber()
	var generic map[string]any
	if err := decoder.Decode(&generic); err != nil {
		return object{}, []string{fmt.Sprintf("%s: %v", source, err)}
	}
	o := object{source: source, generic: generic}
	o.apiVersion, _ = generic["apiVersion"].(string)
	o.kind, _ = generic["kind"].(string)
	if metadata, ok := generic["metadata"].(map[string]any); ok {
		o.name, _ = metadata["name"].(string)
	}
	if o.apiVersion == "" || o.kind == "" || o.name == "" {
		return o, []string{fmt.Sprintf("%s: apiVersion, kind and metadata.name are required", source)}
	}
	o.source = fmt.Sprintf("%s, %s", source, o.apiVersion)
	key := o.apiVersion + "/" + o.kind
	if newObject, ok := builtIn[key]; ok {
		typed := newObject()
		if err := yaml.UnmarshalStrict(doc, typed); err != nil {
			return o, []string{fmt.Sprintf("%s: %v", o, err)}
		}
		o.typed = typed
		return o, nil
	}
	schema, ok := schemas[key]
	if !ok {
		return o, []string{fmt.Sprintf("%s: no typed API or schema known for %s", o, key)}
	}
	var problems []string
	// Metadata is the same ObjectMeta for every kind: decoded strictly like a built-in object's.
	metadata, _ := json.Marshal(generic["metadata"])
	if err := yaml.UnmarshalStrict(metadata, &metav1.ObjectMeta{}); err != nil {
		problems = append(problems, fmt.Sprintf("%s: metadata: %v", o, err))
	}
	body := map[string]any{}
	for k, v := range generic {
		if k != "metadata" {
			body[k] = v
		}
	}
	bodySchema := map[string]any{}
	for k, v := range schema.Schema {
		bodySchema[k] = v
	}
	properties := map[string]any{}
	for k, v := range schema.Schema["properties"].(map[string]any) {
		if k != "metadata" {
			properties[k] = v
		}
	}
	bodySchema["properties"] = properties
	if required, ok := schema.Schema["required"].([]any); ok {
		var rest []any
		for _, name := range required {
			if name != "metadata" {
				rest = append(rest, name)
			}
		}
		bodySchema["required"] = rest
	}
	for _, problem := range checkSchema(o.kind, body, bodySchema) {
		problems = append(problems, fmt.Sprintf("%s: %s", o, problem))
	}
	if _, hasStatus := generic["status"]; hasStatus {
		problems = append(problems, fmt.Sprintf("%s: status is the operator's, not the manifest's", o))
	}
	return o, problems
}

// readSecrets reads lines "name key1 key2 ..." (# starts a comment): the Secrets an operator creates before
// applying the manifests, which the manifests reference but do not contain.
func readSecrets(file string) (map[string]map[string]bool, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	secrets := map[string]map[string]bool{}
	for number, line := range strings.Split(string(data), "\n") {
		if i := strings.Index(line, "#"); i >= 0 {
			line = line[:i]
		}
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if len(fields) < 2 {
			return nil, fmt.Errorf("%s:%d: a Secret's name and at least one key", file, number+1)
		}
		keys := map[string]bool{}
		for _, key := range fields[1:] {
			keys[key] = true
		}
		secrets[fields[0]] = keys
	}
	return secrets, nil
}
