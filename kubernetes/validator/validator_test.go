package main

import (
	"strings"
	"testing"
)

func decodeOne(t *testing.T, doc string) []string {
	t.Helper()
	schemas, err := loadSchemas()
	if err != nil {
		t.Fatal(err)
	}
	_, problems := decode("test", []byte(doc), schemas)
	return problems
}

func expectProblem(t *testing.T, problems []string, want string) {
	t.Helper()
	for _, p := range problems {
		if strings.Contains(p, want) {
			return
		}
	}
	t.Fatalf("expected a problem containing %q, got %v", want, problems)
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: catalog
spec:
  replicas: 2
  selector:
    matchLabels: {app: catalog}
  template:
    metadata:
      labels: {app: catalog}
    spec:
      containers:
        - name: catalog
          image: agora/catalog-service
`

func TestAValidBuiltInObjectDecodes(t *testing.T) {
	if problems := decodeOne(t, deployment); len(problems) > 0 {
		t.Fatal(problems)
	}
}

func TestAnUnknownFieldOfABuiltInObjectFails(t *testing.T) {
	expectProblem(t, decodeOne(t, strings.Replace(deployment, "replicas: 2", "replica: 2", 1)), `unknown field "replica"`)
}

func TestAWrongTypeInABuiltInObjectFails(t *testing.T) {
	expectProblem(t, decodeOne(t, strings.Replace(deployment, "replicas: 2", "replicas: two", 1)), "replicas")
}

func TestADuplicateKeyFails(t *testing.T) {
	expectProblem(t, decodeOne(t, strings.Replace(deployment, "replicas: 2", "replicas: 2\n  replicas: 3", 1)), "already set")
}

func TestAKindWithoutTypedAPIOrSchemaFails(t *testing.T) {
	expectProblem(t, decodeOne(t, "apiVersion: example.com/v1\nkind: Gadget\nmetadata: {name: g}\n"), "no typed API or schema")
}

const cnpgCluster = `apiVersion: postgresql.cnpg.io/v1
kind: Cluster
metadata:
  name: db
spec:
  instances: 3
  postgresql:
    synchronous:
      method: any
      number: 1
`

func TestAValidCustomResourcePasses(t *testing.T) {
	if problems := decodeOne(t, cnpgCluster); len(problems) > 0 {
		t.Fatal(problems)
	}
}

func TestAnUnknownFieldOfACustomResourceFails(t *testing.T) {
	expectProblem(t, decodeOne(t, strings.Replace(cnpgCluster, "instances: 3", "instance: 3", 1)), "spec.instance: unknown field")
}

func TestAWrongTypeInACustomResourceFails(t *testing.T) {
	expectProblem(t, decodeOne(t, strings.Replace(cnpgCluster, "instances: 3", `instances: "3"`, 1)), "must be a number")
}

func TestAValueOutsideACustomResourcesEnumFails(t *testing.T) {
	expectProblem(t, decodeOne(t, strings.Replace(cnpgCluster, "method: any", "method: some", 1)), "is not one of")
}

func TestAMissingRequiredFieldOfACustomResourceFails(t *testing.T) {
	doc := "apiVersion: postgresql.cnpg.io/v1\nkind: ScheduledBackup\nmetadata: {name: b}\nspec:\n  cluster: {name: db}\n"
	expectProblem(t, decodeOne(t, doc), "spec.schedule: required")
}

func TestTheCollectorsConfigurationIsFreeFormButItsSpecIsNot(t *testing.T) {
	doc := "apiVersion: opentelemetry.io/v1beta1\nkind: OpenTelemetryCollector\nmetadata: {name: c}\nspec:\n" +
		"  config:\n    receivers: {otlp: {protocols: {http: {}}}}\n    exporters: {debug: {}}\n" +
		"    service: {pipelines: {traces: {receivers: [otlp], exporters: [debug]}}}\n"
	if problems := decodeOne(t, doc); len(problems) > 0 {
		t.Fatal(problems)
	}
	expectProblem(t, decodeOne(t, doc+"  replicaz: 2\n"), "spec.replicaz: unknown field")
}

func TestReferencesToMissingConfigMapsAndSecretKeysFail(t *testing.T) {
	schemas, _ := loadSchemas()
	doc := strings.Replace(deployment, "          image: agora/catalog-service\n", `          image: agora/catalog-service
          envFrom:
            - configMapRef: {name: nowhere}
          env:
            - name: DATABASE_PASSWORD
              valueFrom:
                secretKeyRef: {name: agora-db-catalog, key: pasword}
`, 1)
	o, problems := decode("test", []byte(doc), schemas)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	problems = checkRules([]object{o}, map[string]map[string]bool{"agora-db-catalog": {"username": true, "password": true}})
	expectProblem(t, problems, "ConfigMap nowhere is not in the manifests")
	expectProblem(t, problems, "Secret agora-db-catalog has no key pasword")
	expectProblem(t, problems, "no securityContext")
	expectProblem(t, problems, "no liveness probe")
}
