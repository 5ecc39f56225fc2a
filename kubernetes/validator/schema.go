package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// The OpenAPI schemas of the custom resources the manifests use, as their projects publish them in their CRDs
// (schemas/NOTICE.md names the releases). Descriptions are left out; the structure is the CRDs' own.
//
//go:embed schemas/*.json
var schemaFiles embed.FS

type crdSchema struct {
	Group   string         `json:"group"`
	Kind    string         `json:"kind"`
	Version string         `json:"version"`
	Scope   string         `json:"scope"`
	Schema  map[string]any `json:"schema"`
}

func loadSchemas() (map[string]crdSchema, error) {
	entries, err := schemaFiles.ReadDir("schemas")
	if err != nil {
		return nil, err
	}
	schemas := map[string]crdSchema{}
	for _, entry := range entries {
		if !strings.HasSuffix(entry.Name(), ".json") {
			continue
		}
		data, err := schemaFiles.ReadFile("schemas/" + entry.Name())
		if err != nil {
			return nil, err
		}
		var s crdSchema
		if err := json.Unmarshal(data, &s); err != nil {
			return nil, fmt.Errorf("%s: %w", entry.Name(), err)
		}
		schemas[s.Group+"/"+s.Version+"/"+s.Kind] = s
	}
	return schemas, nil
}

// checkSchema reports every place where value breaks schema, as the API server's structural validation would:
// unknown fields (unless the schema preserves them), wrong types, missing required fields, values outside an
// enum, a pattern or a bound. CEL rules (x-kubernetes-validations) are not evaluated.
func checkSchema(path string, value any, schema map[string]any) []string {
	var problems []string
	if value == nil {
		if nullable, _ := schema["nullable"].(bool); nullable {
			return nil
		}
	}
	if intOrString, _ := schema["x-kubernetes-int-or-string"].(bool); intOrString {
		switch value.(type) {
		case string, json.Number:
			return nil
		default:
			return []string{fmt.Sprintf("%s: must be an integer or a string, is %s", path, describe(value))}
		}
	}
	if anyOf, ok := schema["anyOf"].([]any); ok && schema["type"] == nil {
		for _, option := range anyOf {
			if len(checkSchema(path, value, option.(map[string]any))) == 0 {
				return nil
			}
		}
		return []string{fmt.Sprintf("%s: matches none of the allowed forms", path)}
	}
	if enum, ok := schema["enum"].([]any); ok {
		found := false
		for _, allowed := range enum {
			if fmt.Sprint(allowed) == fmt.Sprint(value) {
				found = true
				break
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("%s: %v is not one of %v", path, value, enum))
		}
	}
	switch schema["type"] {
	case "object":
		object, ok := value.(map[string]any)
		if !ok {
			return append(problems, fmt.Sprintf("%s: must be an object, is %s", path, describe(value)))
		}
		properties, _ := schema["properties"].(map[string]any)
		additional, hasAdditional := schema["additionalProperties"].(map[string]any)
		preserve, _ := schema["x-kubernetes-preserve-unknown-fields"].(bool)
		for _, key := range sortedKeys(object) {
			child := path + "." + key
			if property, ok := properties[key].(map[string]any); ok {
				problems = append(problems, checkSchema(child, object[key], property)...)
			} else if hasAdditional {
				problems = append(problems, checkSchema(child, object[key], additional)...)
			} else if !preserve {
				problems = append(problems, fmt.Sprintf("%s: unknown field (known: %s)", child,
					strings.Join(sortedKeys(properties), ", ")))
			}
		}
		if required, ok := schema["required"].([]any); ok {
			for _, name := range required {
				if _, present := object[name.(string)]; !present {
					problems = append(problems, fmt.Sprintf("%s.%s: required", path, name))
				}
			}
		}
	case "array":
		list, ok := value.([]any)
		if !ok {
			return append(problems, fmt.Sprintf("%s: must be a list, is %s", path, describe(value)))
		}
		if items, ok := schema["items"].(map[string]any); ok {
			for i, item := range list {
				problems = append(problems, checkSchema(fmt.Sprintf("%s[%d]", path, i), item, items)...)
			}
		}
		if bound, ok := schema["minItems"].(float64); ok && float64(len(list)) < bound {
			problems = append(problems, fmt.Sprintf("%s: at least %v items", path, bound))
		}
		if bound, ok := schema["maxItems"].(float64); ok && float64(len(list)) > bound {
			problems = append(problems, fmt.Sprintf("%s: at most %v items", path, bound))
		}
	case "string":
		text, ok := value.(string)
		if !ok {
			return append(problems, fmt.Sprintf("%s: must be a string, is %s", path, describe(value)))
		}
		if pattern, ok := schema["pattern"].(string); ok {
			// Kubernetes patterns are ECMA 262; the ones RE2 cannot compile are left to the API server.
			if re, err := regexp.Compile(pattern); err == nil && !re.MatchString(text) {
				problems = append(problems, fmt.Sprintf("%s: %q does not match %s", path, text, pattern))
			}
		}
		if bound, ok := schema["minLength"].(float64); ok && float64(len(text)) < bound {
			problems = append(problems, fmt.Sprintf("%s: at least %v characters", path, bound))
		}
		if bound, ok := schema["maxLength"].(float64); ok && float64(len(text)) > bound {
			problems = append(problems, fmt.Sprintf("%s: at most %v characters", path, bound))
		}
	case "integer", "number":
		number, ok := value.(json.Number)
		if !ok {
			return append(problems, fmt.Sprintf("%s: must be a number, is %s", path, describe(value)))
		}
		if schema["type"] == "integer" {
			if _, err := number.Int64(); err != nil {
				return append(problems, fmt.Sprintf("%s: must be an integer, is %s", path, number))
			}
		}
		f, _ := number.Float64()
		if bound, ok := schema["minimum"].(float64); ok && f < bound {
			problems = append(problems, fmt.Sprintf("%s: at least %v", path, bound))
		}
		if bound, ok := schema["maximum"].(float64); ok && f > bound {
			problems = append(problems, fmt.Sprintf("%s: at most %v", path, bound))
		}
	case "boolean":
		if _, ok := value.(bool); !ok {
			return append(problems, fmt.Sprintf("%s: must be true or false, is %s", path, describe(value)))
		}
	}
	return problems
}

func describe(value any) string {
	switch v := value.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("the string %q", v)
	case json.Number:
		return "the number " + v.String()
	case bool:
		return fmt.Sprintf("the boolean %v", v)
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", value)
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for key := range m {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	return keys
}
