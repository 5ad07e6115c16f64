package tools_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/resilientgo/resilient/tools"
)

// knownKeyInputs are inputs of every shape the canonicalizer meets, large
// and small; TestDefaultKeyKnownValues pins their keys.
func knownKeyInputs() []string {
	var doc strings.Builder // a 100 KB document, its top object's keys out of order
	doc.WriteString(`{"title":"notes","lines":[`)
	for i := 0; doc.Len() < 100<<10-20; i++ {
		if i > 0 {
			doc.WriteByte(',')
		}
		fmt.Fprintf(&doc, `{"n":%d,"text":"line %d of the document"}`, i, i)
	}
	doc.WriteString(`]}`)

	var spaced strings.Builder // the same shape, written by hand: spaces, keys reversed, escapes
	spaced.WriteString("{\n  \"z\": [\n")
	for i := range 500 {
		if i > 0 {
			spaced.WriteString(",\n")
		}
		fmt.Fprintf(&spaced, "    { \"text\" : \"l\\u00edne %d \\\"q\\\" <a&b> \\/ \\t\" , \"n\" : %d.5e-3 , \"ok\" : %v , \"none\" : null }", i, i, i%2 == 0)
	}
	spaced.WriteString("\n  ],\n  \"a\": { }\n}\n")

	var long strings.Builder // one long string with a special byte every 97 bytes
	long.WriteString(`{"body":"`)
	for i := range 2000 {
		long.WriteString(strings.Repeat("abcdefgh", 12))
		long.WriteString([]string{`\n`, `<`, `&`, "\u2028", `\u003e`, "é", "日本", "😀", `\ud83d\ude00`, `\\`}[i%10])
	}
	long.WriteString(`"}`)

	var keys strings.Builder // many keys, in reverse order
	keys.WriteString("{")
	for i := 300; i > 0; i-- {
		fmt.Fprintf(&keys, `"key%03d":[%d,{"b":%d,"a":"%d"}]`, i, i, i, i)
		if i > 1 {
			keys.WriteString(",")
		}
	}
	keys.WriteString("}")

	return []string{
		doc.String(),
		spaced.String(),
		long.String(),
		keys.String(),
		nested(300, `{ "b" : 1 , "a" : [ ] }`),
		`{"z":{"b":[3,2,1],"a":"\u00e9\n\t<>&\u2028"},"a":[{"y":1,"x":2}],"m":null,"t":true,"f":false,"n":-1.5e+10}`,
		`"\"\\\/\b\f\n\r\t\u0001\u001f\u007f\ud83d\ude00 \u2029"`,
		"\"日本語 😀 \u2029 \u2028 \x7f\"",
		` [ 0 , -0 , 1E+2 , 0.000 , 123456789012345678901234567890 ] `,
		`{"a":1,"a":2}`,
		`{"a":1} x`,
		"{\"a\":\"\xff\"}",
		`["\ud800"]`,
		"",
		"plain text, not JSON",
	}
}

// knownKeys are the keys of knownKeyInputs, as every version since
// canonicalization became strict computed them: keys persist in shared
// stores across versions, so a change of one is a breaking change.
var knownKeys = []string{
	"t:5d86d15afcfdc8772d213bab149f4bbf3bf124d1b6c83772e73ac2cdb1b7121e",
	"t:d0fa627266e33305b1ae9ca650b879d97a57aa2d9add3d64e3a04819b377f21d",
	"t:6ab9972da1d0a2737c0a55c6fc50a4003595ab1b8e2b0dcac93d9de43b6ae16e",
	"t:f8073eddca008be510bf6a666312bc5d5eb577e10cae308768049b2d5af84b0f",
	"t:8922a87c66ec62a82994f70aec4ac30b1cf06e4b4a633dd29bb22063a0e3b9d5",
	"t:ace65856488229c4264ded8fff1eb1d6257f7582caa054728476cd68629f69f0",
	"t:50ee97989b9423548c2f5afc447cbf354a8c41a5333f659313023eb15a0e48c8",
	"t:ab93a57377b34403be20c8fbbeb44a9c3871cb5d939f46845fa7c2b9c862b76e",
	"t:d4d23294af1dcbad3dada3751fadc7de036b0789b918bc840411c2ef27435a96",
	"t:1c53ee0df7b12fd4d65b976120c7fa6b847dc41dffd7f0331c3237a1ceab1756",
	"t:a1b60df1c2aca39cf4b43d03db7c690962b536bce17783e5fb2075275a15407b",
	"t:dc2222acf0a31b9e965c6577a25c70f729766e07124482731257cb4bca738af7",
	"t:69119aac5ce42bc93c1667db0454297ffaa342c431efa2dfdf48af101c035106",
	"t:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
	"t:acba08cfa36f4cf7f290614a3eb8c798bcb1fcf0d1fa7e3922e271d40f41026d",
}

// TestDefaultKeyKnownValues: the keys of inputs of every shape keep their
// values, which are those of DefaultKey's specification (built from
// encoding/json).
func TestDefaultKeyKnownValues(t *testing.T) {
	inputs := knownKeyInputs()
	if len(inputs) != len(knownKeys) {
		t.Fatalf("%d inputs, %d known keys", len(inputs), len(knownKeys))
	}
	for i, in := range inputs {
		if got := tools.DefaultKey("t", in); got != knownKeys[i] {
			t.Errorf("input %d (%.40q...): got %s, want %s", i, in, got, knownKeys[i])
		}
		if spec := specKey("t", in); spec != knownKeys[i] {
			t.Errorf("input %d (%.40q...): the specification gives %s, the known key is %s", i, in, spec, knownKeys[i])
		}
	}
}
