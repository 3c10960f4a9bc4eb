package bigtable

import (
	"fmt"
	"reflect"
	"testing"
)

// dump reports where two values differ, field by field (reflect.DeepEqual says only that they do).
func dump(t *testing.T, a, b any, path string) {
	va, vb := reflect.ValueOf(a), reflect.ValueOf(b)
	if reflect.DeepEqual(a, b) {
		return
	}
	switch va.Kind() {
	case reflect.Pointer:
		if va.IsNil() || vb.IsNil() {
			t.Logf("%s: %v vs %v", path, va, vb)
			return
		}
		dump(t, va.Elem().Interface(), vb.Elem().Interface(), path)
	case reflect.Struct:
		for i := 0; i < va.NumField(); i++ {
			if va.Type().Field(i).IsExported() {
				dump(t, va.Field(i).Interface(), vb.Field(i).Interface(), path+"."+va.Type().Field(i).Name)
			}
		}
	case reflect.Slice:
		if va.IsNil() != vb.IsNil() || va.Len() != vb.Len() {
			t.Logf("%s: nil %v/%v len %d/%d", path, va.IsNil(), vb.IsNil(), va.Len(), vb.Len())
			return
		}
		for i := 0; i < va.Len(); i++ {
			dump(t, va.Index(i).Interface(), vb.Index(i).Interface(), fmt.Sprintf("%s[%d]", path, i))
		}
	default:
		t.Logf("%s: %v vs %v", path, a, b)
	}
}
