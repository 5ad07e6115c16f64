package taxonomy

import (
	"reflect"
	"strings"
	"testing"
)

// TestMustContainRejectsABadPrefilter checks the start-up check of every
// pattern rule: a prefilter that is empty or not spelled out by the
// expression is a badly written rule, and the package must not start with it.
func TestMustContainRejectsABadPrefilter(t *testing.T) {
	tests := []struct {
		name, need, expr string
		panics           bool
	}{
		{"literal of the expression", "busy", `\bserver (?:is )?busy\b`, false},
		{"literal at the start", "429", `429(?:$|\s)`, false},
		{"not in the expression", "overloaded", `\bserver busy\b`, true},
		{"empty", "", `\bserver busy\b`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recovered any
			func() {
				defer func() { recovered = recover() }()
				mustContain(tt.need, tt.expr)
			}()
			if got := recovered != nil; got != tt.panics {
				t.Fatalf("mustContain(%q, %q) panicked: got %v (%v), want %v", tt.need, tt.expr, got, recovered, tt.panics)
			}
			if tt.panics && !strings.HasPrefix(recovered.(string), "taxonomy: prefilter ") {
				t.Errorf("panic message %q, want the package prefix and the prefilter", recovered)
			}
		})
	}
}

// TestRulePrefilters checks every pattern rule's prefilter against the
// texts its expression matches in the table: a prefilter that is not a
// literal of every match would hide the rule.
func TestRulePrefilters(t *testing.T) {
	for _, rules := range [][]textRule{overflowRules.rules, unloadableRules.rules, billingRules.rules, textRules} {
		for _, r := range rules {
			if r.re == nil {
				if r.lit == "" || r.lit != strings.ToLower(r.lit) {
					t.Errorf("rule %s: literal %q must be lowercase and not empty", r.name, r.lit)
				}
				continue
			}
			if !strings.Contains(r.re.String(), r.need) {
				t.Errorf("rule %s: prefilter %q not in %s", r.name, r.need, r.re)
			}
		}
	}
}

// TestFieldCacheIsBounded fills the field cache past its bound with distinct
// types and checks that it stops growing and that a type looked up past the
// bound is still read right.
func TestFieldCacheIsBounded(t *testing.T) {
	type earlyError struct{ StatusCode int }
	if cachedTypes.Load() < maxCachedTypes {
		fieldsOf(reflect.TypeFor[earlyError]())
		if _, cached := fieldCache.Load(reflect.TypeFor[earlyError]()); !cached {
			t.Errorf("a type within the bound was not cached")
		}
	}
	for i := range maxCachedTypes + 10 {
		fieldsOf(reflect.ArrayOf(i, reflect.TypeFor[byte]()))
	}
	if got := cachedTypes.Load(); got > maxCachedTypes {
		t.Fatalf("cached types: got %d, want at most %d", got, maxCachedTypes)
	}
	type lateError struct{ StatusCode int }
	f := fieldsOf(reflect.TypeFor[lateError]())
	if f.status == nil {
		t.Fatalf("a type past the bound: StatusCode not found")
	}
	if _, cached := fieldCache.Load(reflect.TypeFor[lateError]()); cached {
		t.Errorf("a type past the bound was cached")
	}
}

// TestNewFamilyRejectsARuleWithoutItsWords checks the start-up check of a
// family: a rule that holds none of the family's words would be skipped for
// every text, so the package must not start with it.
func TestNewFamilyRejectsARuleWithoutItsWords(t *testing.T) {
	var recovered any
	func() {
		defer func() { recovered = recover() }()
		newFamily([]string{"quota"}, marker(Permanent, "insufficient_quota"), marker(Permanent, "credit balance is too low"))
	}()
	msg, _ := recovered.(string)
	if !strings.Contains(msg, `marker "credit balance is too low"`) {
		t.Fatalf("newFamily with a rule outside its words: got panic %v, want one naming the rule", recovered)
	}
	f := newFamily([]string{"quota", "credit"}, marker(Permanent, "insufficient_quota"), pattern(Permanent, "credits", "credit", `credits? used up`))
	for _, tt := range []struct {
		text string
		want bool
	}{{"insufficient_quota", true}, {"all credits used up", true}, {"credit", false}, {"nothing here", false}} {
		if _, got := f.first(tt.text); got != tt.want {
			t.Errorf("first(%q): got %v, want %v", tt.text, got, tt.want)
		}
	}
}
