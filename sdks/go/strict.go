// Strict decoding of the binary's frames: every object the coprocess
// defines is closed, so an unknown field, a missing one or a key spelt in
// another case fails with its JSON path instead of decoding into defaults.
// Objects the MCP server sent (tools, content blocks, resource contents)
// are open by the MCP specification; their types implement json.Unmarshaler,
// keep the verbatim JSON and are not walked.

package mcptest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

var unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// shapeError is one field that breaks a closed object.
type shapeError struct {
	path   string
	field  string
	detail string
}

// decodeStrict decodes raw into target (a pointer to a struct of this
// package) after checking its shape. what names the object for messages
// ("the verdict").
func decodeStrict(method, what string, raw json.RawMessage, target any) error {
	var generic any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&generic); err != nil {
		return &ProtocolError{Method: method, Detail: fmt.Sprintf("%s is not JSON: %v", what, err)}
	}
	if se := checkShape(generic, reflect.TypeOf(target).Elem(), "$"); se != nil {
		return &ProtocolError{Method: method, Field: se.path, Detail: fmt.Sprintf("%s in %s (this SDK parses strictly; an SDK and a binary of the same release agree)", se.detail, what)}
	}
	dec = json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(target); err != nil {
		return &ProtocolError{Method: method, Detail: fmt.Sprintf("%s does not decode: %v", what, err)}
	}
	return nil
}

// checkShape compares a decoded JSON value with the Go type it is meant
// for: object keys must match the json tags exactly, and every field whose
// tag lacks omitempty must be present (null counts as present).
func checkShape(v any, t reflect.Type, path string) *shapeError {
	if v == nil {
		return nil
	}
	if t.Implements(unmarshalerType) || reflect.PointerTo(t).Implements(unmarshalerType) {
		return nil
	}
	switch t.Kind() {
	case reflect.Pointer:
		return checkShape(v, t.Elem(), path)
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return &shapeError{path: path, detail: fmt.Sprintf("%s should be an object, got %s", path, jsonKind(v))}
		}
		fields := structFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if _, known := fields[k]; !known {
				p := path + "." + k
				return &shapeError{path: p, field: k, detail: fmt.Sprintf("unknown field %q at %s (known: %s)", k, p, knownNames(fields))}
			}
		}
		names := make([]string, 0, len(fields))
		for name := range fields {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			f := fields[name]
			value, present := obj[name]
			if !present {
				if !f.optional {
					p := path + "." + name
					return &shapeError{path: p, field: name, detail: fmt.Sprintf("missing field %q at %s", name, p)}
				}
				continue
			}
			if se := checkShape(value, f.typ, path+"."+name); se != nil {
				return se
			}
		}
	case reflect.Slice:
		items, ok := v.([]any)
		if !ok {
			return &shapeError{path: path, detail: fmt.Sprintf("%s should be an array, got %s", path, jsonKind(v))}
		}
		for i, item := range items {
			if se := checkShape(item, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); se != nil {
				return se
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return &shapeError{path: path, detail: fmt.Sprintf("%s should be an object, got %s", path, jsonKind(v))}
		}
		for k, item := range obj {
			if se := checkShape(item, t.Elem(), path+"."+k); se != nil {
				return se
			}
		}
	}
	return nil
}

type fieldInfo struct {
	typ      reflect.Type
	optional bool
}

func structFields(t reflect.Type) map[string]fieldInfo {
	fields := make(map[string]fieldInfo, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = f.Name
		}
		fields[name] = fieldInfo{typ: f.Type, optional: strings.Contains(opts, "omitempty")}
	}
	return fields
}

func knownNames(fields map[string]fieldInfo) string {
	names := make([]string, 0, len(fields))
	for n := range fields {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none: the object is empty"
	}
	return strings.Join(names, ", ")
}

func jsonKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	default:
		return "null"
	}
}

// keysOf lists the members of a JSON object (nil when raw is not one).
func keysOf(raw json.RawMessage) map[string]json.RawMessage {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil
	}
	return obj
}
